/* Preprocessor lines of C definitions (cdecl.c): #include of headers,
 * #define NAME constant, and header guards (read and ignored). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cdecl_int.h"

static bool include_text(CDefs *d, const char *path, Loc inc, Error *err)
{
	char *text;
	if (d->depth >= 16)
		return error_at(err, inc, "#include nested too deeply (%s)", path);
	if (!(text = read_file_all(path, NULL)))
		return error_at(err, inc, "cannot read %s: %s", path, strerror(errno));
	d->depth++;
	bool ok = cdefs_parse(d, text, (Loc){1, 1, 1}, arena_strdup(d->arena, path), inc, err);
	d->depth--;
	free(text);
	return ok;
}

bool cdefs_include_file(CDefs *d, const char *path, Loc inc, Error *err)
{
	return include_text(d, path, inc, err);
}

/* rest of a preprocessor line, without comments */
static void pp_rest(CP *p, char *buf, size_t n)
{
	size_t j = 0;
	while (cd_ch(p, 0) && cd_ch(p, 0) != '\n') {
		if (cd_ch(p, 0) == '\\' && cd_ch(p, 1) == '\n') {
			cd_adv(p, 2);
			continue;
		}
		if (cd_ch(p, 0) == '/' && (cd_ch(p, 1) == '/' || cd_ch(p, 1) == '*'))
			break;
		if (j + 1 < n)
			buf[j++] = cd_ch(p, 0);
		cd_adv(p, 1);
	}
	while (j && isspace((unsigned char)buf[j - 1]))
		j--;
	buf[j] = 0;
}

static bool pp_include(CP *p, Loc at)
{
	while (cd_ch(p, 0) == ' ' || cd_ch(p, 0) == '\t')
		cd_adv(p, 1);
	char q = cd_ch(p, 0), close = q == '<' ? '>' : '"';
	if (q != '<' && q != '"')
		return cd_err(p, at, "#include needs <FILE> or \"FILE\"");
	cd_adv(p, 1);
	char name[512];
	size_t j = 0;
	while (cd_ch(p, 0) && cd_ch(p, 0) != close && cd_ch(p, 0) != '\n') {
		if (j + 1 < sizeof(name))
			name[j++] = cd_ch(p, 0);
		cd_adv(p, 1);
	}
	name[j] = 0;
	if (cd_ch(p, 0) != close)
		return cd_err(p, at, "unterminated #include file name");
	cd_adv(p, 1);
	char path[1024];
	Loc inc = p->file ? p->inc : at;
	for (int i = 0; i < p->d->ninclude_dirs; i++) {
		snprintf(path, sizeof(path), "%s/%s", p->d->include_dirs[i], name);
		if (access(path, R_OK) == 0)
			return include_text(p->d, path, inc, p->err);
	}
	if (q == '"') {
		if (name[0] == '/')
			snprintf(path, sizeof(path), "%s", name);
		else
			snprintf(path, sizeof(path), "%s%s", p->d->script_dir ? p->d->script_dir : "",
				 name);
		if (access(path, R_OK) == 0)
			return include_text(p->d, path, inc, p->err);
		return cd_err(p, at, "#include \"%s\": no such file (add a directory with -I)", name);
	}
	/* <system header> not in -I: its types come from the kernel's BTF */
	return true;
}

static bool pp_define(CP *p, Loc at)
{
	if (!cd_next(p))
		return false;
	if (p->tk != CT_IDENT)
		return cd_err(p, p->tloc, "#define needs a name");
	char *name = cd_tokdup(p);
	if (cd_ch(p, 0) == '(')
		return cd_err(p, p->tloc, "macros with arguments are not supported (#define %s(...)); "
			    "only #define NAME constant", name);
	char rest[512];
	pp_rest(p, rest, sizeof(rest));
	if (!rest[0])
		return true; /* an include guard or a flag: nothing to keep */
	/* evaluate the value as a constant expression */
	CP sub = *p;
	sub.s = rest;
	sub.pos = 0;
	while (rest[sub.pos] == ' ' || rest[sub.pos] == '\t')
		sub.pos++;
	sub.line = at.line;
	sub.col = p->col - (int)strlen(rest) + (int)sub.pos;
	int64_t v;
	if (!cd_next(&sub))
		return false;
	if (sub.tk == CT_STR)
		return true; /* string macros: not usable as constants, ignored */
	if (!cd_cexpr(&sub, &v))
		return false;
	if (sub.tk != CT_EOF) {
		char b[48];
		return cd_err(p, sub.tloc, "#define %s: expected a constant, found %s", name,
			    cd_tokdesc(&sub, b, sizeof(b)));
	}
	cd_add_name(p->d, CN_CONST, name, NULL, v);
	return true;
}

bool cd_directive(CP *p)
{
	Loc at = p->tloc;
	if (!cd_next(p))
		return false;
	if (cd_is(p, "include"))
		return pp_include(p, at);
	if (cd_is(p, "define"))
		return pp_define(p, at);
	if (cd_is(p, "ifndef") || cd_is(p, "ifdef") || cd_is(p, "endif") || cd_is(p, "pragma") ||
	    cd_is(p, "if") || cd_is(p, "else") || cd_is(p, "elif") || cd_is(p, "undef") || cd_is(p, "error") ||
	    cd_is(p, "warning")) {
		/* header guards: every branch is read (simple headers only) */
		char rest[512];
		pp_rest(p, rest, sizeof(rest));
		return true;
	}
	char b[48];
	return cd_err(p, p->tloc, "unsupported preprocessor directive %s", cd_tokdesc(p, b, sizeof(b)));
}
