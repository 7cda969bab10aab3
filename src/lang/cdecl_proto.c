/* D's rules for a function prototype's parameters (dtrace's
 * dt_decl_prototype()): a void parameter has no name, and no parameter is
 * an associative array ("dynamic variable").  Checked on a copy of the
 * parser at the '(' before the list is skipped (D has no functions). */
#include <stdio.h>
#include <string.h>

#include "cdecl_int.h"

static bool key_type_word(CP *p)
{
	static const char *const words[] = {"void", "char", "short", "int", "long", "float", "double",
					    "signed", "unsigned", "string", "struct", "union", "enum"};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (cd_is(p, words[i]))
			return true;
	return p->tk == CT_IDENT && cdefs_find(p->d, CN_TYPEDEF, cd_tokdup(p));
}

/* at the '[' of parameter #n, whose name (so far) is name */
static bool dynamic_ok(const CP *at, const char *name, int n)
{
	CP p = *at;
	if (!cd_next(&p) || !key_type_word(&p))
		return true;
	return cd_err(&p, at->tloc, "function prototype may not use parameter of type dynamic "
		      "variable: %s, parameter #%d", name, n);
}

bool cd_d_prototype_ok(const CP *at)
{
	CP p = *at;
	int n = 1, ntok = 0, depth = 0;
	bool void_first = false;
	const char *name = "(anonymous)";
	if (!cd_next(&p))
		return false;
	while (p.tk != CT_EOF && !(depth == 0 && cd_is(&p, ")"))) {
		if (depth == 0 && cd_is(&p, ",")) {
			n++;
			ntok = 0;
			void_first = false;
			name = "(anonymous)";
		} else if (depth == 0) {
			if (ntok == 0)
				void_first = cd_is(&p, "void");
			else if (p.tk == CT_IDENT)
				name = cd_tokdup(&p);
			if (ntok == 1 && void_first && p.tk == CT_IDENT)
				return cd_err(&p, p.tloc, "void parameter may not have a name: %s", name);
			if (cd_is(&p, "[") && !dynamic_ok(&p, name, n))
				return false;
			ntok++;
		}
		depth += (cd_is(&p, "(") || cd_is(&p, "[")) - (cd_is(&p, ")") || cd_is(&p, "]"));
		if (!cd_next(&p))
			return false;
	}
	return true;
}
