/* A small C-declaration parser for the definitions a script writes before
 * its probes (and the headers it #includes): structs, unions, enums,
 * typedefs, bitfields, nested and anonymous members, #define NAME value.
 * Layout follows the x86-64 System V ABI (natural alignment; bitfields
 * packed in units of their declared type).  Anything else — function
 * bodies, macros with arguments — is an error with its location.  This
 * file is its top level (declarations, typedefs, D's externs) and the type
 * names of casts; the parts are in cdecl_*.c (cdecl_int.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdecl_int.h"

/* ---- top level ---- */

static bool starts_def(const CP *p)
{
	return cd_is(p, "struct") || cd_is(p, "union") || cd_is(p, "enum") || cd_is(p, "typedef");
}

/* After a struct body in the script: is the next identifier a declarator
 * ("} x;") or the first probe ("}\nBEGIN {")? */
static bool declarator_follows(const CP *p)
{
	if (cd_is(p, "*"))
		return true;
	if (p->tk != CT_IDENT)
		return false;
	size_t i = p->pos;
	while (p->s[i] == ' ' || p->s[i] == '\t')
		i++;
	return p->s[i] == ';' || p->s[i] == ',' || p->s[i] == '[' || p->s[i] == '=';
}

/* D's declarations: the storage class before the type (extern, or one D
 * refuses for a variable: *bad), and C11's _Static_assert, which says nothing
 * D needs */
static bool storage_class(CP *p, bool *bad, bool *skip)
{
	static const char *const words[] = {"extern", "static", "register", "auto", "inline",
					    "__inline", "__inline__", "__extension__", "_Noreturn"};
	for (;;) {
		size_t i = 0;
		while (i < sizeof(words) / sizeof(words[0]) && !cd_is(p, words[i]))
			i++;
		if (i == sizeof(words) / sizeof(words[0]))
			break;
		*bad |= i >= 1 && i <= 3;
		if (!cd_next(p))
			return false;
	}
	if (!cd_is(p, "_Static_assert"))
		return true;
	Loc at = p->tloc;
	*skip = true;
	return cd_next(p) && cd_skip_balanced(p, at, "_Static_assert") && cd_expect(p, ";", "';'");
}

/* one declarator of a D declaration that is no typedef: a function (its
 * prototype, or its body skipped: D has no functions) or an extern
 * variable; *done after a body */
static bool d_declarator(CP *p, const Type *t, bool bad, Loc at, bool *done)
{
	bool fn = t->kind == TY_NONE && t->cname && !strcmp(t->cname, "function");
	if (fn && cd_is(p, "{")) {
		*done = true;
		return cd_skip_balanced(p, p->tloc, "function body");
	}
	if (bad && !fn)
		return cd_err(p, at, "specified storage class not appropriate in D");
	return true;
}

static bool declaration(CP *p)
{
	bool bad = false, skip = false;
	Loc at = p->tloc;
	if (p->decls && !storage_class(p, &bad, &skip))
		return false;
	if (skip)
		return true;
	if (bad && declarator_follows(p)) /* `register x;`: C's implicit int */
		return cd_err(p, at, "specified storage class not appropriate in D");
	bool td = cd_is(p, "typedef");
	if (td && !cd_next(p))
		return false;
	bool tagged = cd_is(p, "struct") || cd_is(p, "union") || cd_is(p, "enum");
	Type *base;
	if (!cd_decl_spec(p, &base))
		return false;
	if (cd_is(p, ";")) {
		if (p->decls && !tagged)
			return cd_err(p, at, "useless declaration");
		return cd_next(p);
	}
	if (cd_is(p, "{"))
		return cd_err(p, p->tloc, "unexpected '{': a function body? only type definitions "
			    "are supported");
	if (!td && tagged && p->script && !declarator_follows(p))
		return true; /* "struct Foo { ... }" without ';', as bpftrace allows */
	if (!td && p->script && p->d->d_vars) { /* a D variable: to its ';' */
		while (p->tk != CT_EOF && !cd_is(p, ";"))
			if (!cd_next(p))
				return false;
		return p->tk == CT_EOF || cd_next(p);
	}
	for (;;) {
		Type *t;
		char *name;
		Loc nloc;
		int bits = -1;
		if (!cd_declarator(p, base, &t, &name, &nloc, &bits))
			return false;
		bool done = false;
		if (p->decls && !td && !d_declarator(p, t, bad, at, &done))
			return false;
		if (done)
			return true;
		if (cd_is(p, "{"))
			return cd_err(p, p->tloc, "function bodies are not supported in C definitions");
		if (bits >= 0)
			return cd_err(p, nloc, "a bitfield outside of a struct");
		if (td) {
			if (!*name)
				return cd_err(p, nloc, "a typedef needs a name");
			cd_add_name(p->d, CN_TYPEDEF, name, t, 0);
		} else if (p->script && !p->decls) {
			return cd_err(p, at, "only type definitions are supported before the probes "
				    "(struct, union, enum, typedef, #define, #include)");
		}
		if (cd_is(p, "=")) /* an initialized variable in a header: skipped */
			return cd_err(p, p->tloc, "variable definitions are not supported in C "
				    "definitions");
		if (!cd_is(p, ","))
			break;
		if (!cd_next(p))
			return false;
	}
	return cd_expect(p, ";", "';'");
}

static bool parse_all(CP *p)
{
	CDefs *d = p->d;
	if (!cd_next(p))
		return false;
	while (p->tk != CT_EOF) {
		if (p->tk == CT_HASH) {
			if (!cd_directive(p) || !cd_next(p))
				return false;
			continue;
		}
		if (p->script && !starts_def(p))
			break; /* the first probe */
		if (!declaration(p))
			return false;
	}
	if (!cd_pp_end(p))
		return false;
	/* records only named (struct x *p) and never defined here: the kernel's */
	for (int i = 0; i < d->names.n; i++) {
		Type *t = d->names.v[i].type;
		if (t && t->kind == TY_RECORD && !t->fields && !t->pending && !t->btf_id) {
			t->pending = true;
			t->sym = d->sym;
		}
	}
	return true;
}

bool cdefs_parse(CDefs *d, const char *text, Loc at, const char *file, Loc inc, Error *err)
{
	CP p = {.d = d, .s = text, .line = at.line ? at.line : 1, .col = at.col ? at.col : 1,
		.script = file == NULL, .file = file, .src_file = file ? 0 : at.file, .inc = inc,
		.err = err};
	return parse_all(&p);
}

bool cdefs_parse_decls(CDefs *d, const char *text, Error *err)
{
	CP p = {.d = d, .s = text, .line = 1, .col = 1, .decls = true, .err = err};
	return parse_all(&p);
}

/* ---- type names of casts and sizeof ---- */

Type *ctype_parse_name(const CDefs *d, Arena *a, const char *text, char *err, size_t errlen)
{
	CDefs tmp = {0};
	CDefs *dd = d ? (CDefs *)d : &tmp;
	Arena *saved = dd->arena;
	dd->arena = a;
	int saved_n = dd->names.n;
	Error e = {0};
	CP p = {.d = dd, .s = text, .line = 1, .col = 1, .err = &e};
	Type *t = NULL;
	bool ok = cd_next(&p);
	bool tagged = ok && (cd_is(&p, "struct") || cd_is(&p, "union") || cd_is(&p, "enum"));
	if (ok && tagged) {
		bool un = cd_is(&p, "union"), en = cd_is(&p, "enum");
		ok = cd_next(&p);
		char nm[128];
		snprintf(nm, sizeof(nm), "%.*s", p.tl, p.ts);
		if (ok) {
			t = cdefs_find(dd, en ? CN_ENUM : un ? CN_UNION : CN_STRUCT, nm);
			if (!t)
				t = btf_find_type(dd->sym, en ? "enum" : un ? "union" : "struct", nm);
			if (!t) {
				if (btf_error(dd->sym) && !btf_kernel(dd->sym))
					snprintf(err, errlen, "unknown type '%s %s' (%s)",
						 en ? "enum" : un ? "union" : "struct", nm, btf_error(dd->sym));
				else
					snprintf(err, errlen, "unknown type '%s %s': it is not defined "
						 "in the script nor in the kernel's BTF",
						 en ? "enum" : un ? "union" : "struct", nm);
				ok = false;
			} else {
				ok = cd_next(&p);
			}
		}
	} else if (ok) {
		ok = cd_decl_spec(&p, &t);
		if (!ok)
			snprintf(err, errlen, "%s", e.msg);
	}
	while (ok && cd_is(&p, "*")) {
		t = cd_ptr_to(&p, t, false);
		ok = cd_next(&p);
	}
	if (ok && p.tk != CT_EOF) {
		snprintf(err, errlen, "cannot parse the type '%s'", text);
		ok = false;
	}
	dd->names.n = saved_n;
	dd->arena = saved;
	if (dd == &tmp) {
		vec_free(&tmp.names);
		vec_free(&tmp.sys_seen);
	}
	return ok ? t : NULL;
}
