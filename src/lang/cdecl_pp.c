/* Preprocessor lines of C definitions (cdecl.c): #include of headers,
 * #define NAME constant, #undef, and the conditionals (#if, #ifdef,
 * #ifndef, #elif, #else, #endif) whose branches not taken are skipped. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cdecl_int.h"

static bool pp_include_text(CDefs *d, const char *path, Loc inc, Error *err)
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

void cdefs_predefine(CDefs *d)
{
	/* bpftrace's tools pick kernel headers or BTF by this macro */
	if (access(btf_kernel_path(), R_OK) == 0)
		cd_add_name(d, CN_CONST, "BPFTRACE_HAVE_BTF", NULL, 1);
}

/* <name>: a file in an -I directory (*path set, true), a system header
 * whose constants are now read (*path empty, true), or nowhere (false) */
static bool find_angle_header(CDefs *d, const char *name, char *path, size_t n)
{
	for (int i = 0; i < d->ninclude_dirs; i++) {
		snprintf(path, n, "%s/%s", d->include_dirs[i], name);
		if (access(path, R_OK) == 0)
			return true;
	}
	/* <system header> not in -I: its constants (#define) from the system
	 * include path; its types come from the kernel's BTF */
	if (cd_system_header(d, name, path, n)) {
		cd_scan_macros(d, path, 0);
		path[0] = 0;
		return true;
	}
	return false;
}

/* --include FILE, as clang's -include (bpftrace's): FILE itself, else
 * searched as <FILE> is; bpftrace's words when it is nowhere */
bool cdefs_include_file(CDefs *d, const char *path, Loc inc, Error *err)
{
	char found[1024];
	if (access(path, R_OK) == 0 || path[0] == '/')
		return pp_include_text(d, path, inc, err);
	if (!find_angle_header(d, path, found, sizeof(found)))
		return error_at(err, inc, "'%s' file not found", path);
	return !found[0] || pp_include_text(d, found, inc, err);
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
	Loc nat = {p->line, p->col, 1}; /* errors point at <name>, as clang's */
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
	for (int i = 0; q == '"' && i < p->d->ninclude_dirs; i++) {
		snprintf(path, sizeof(path), "%s/%s", p->d->include_dirs[i], name);
		if (access(path, R_OK) == 0)
			return pp_include_text(p->d, path, inc, p->err);
	}
	/* a header's own #include "x.h": beside that header first, as cpp */
	const char *hslash = q == '"' && p->file && name[0] != '/' ? strrchr(p->file, '/') : NULL;
	if (hslash) {
		snprintf(path, sizeof(path), "%.*s%s", (int)(hslash - p->file + 1), p->file, name);
		if (access(path, R_OK) == 0)
			return pp_include_text(p->d, path, inc, p->err);
	}
	if (q == '"') {
		if (name[0] == '/')
			snprintf(path, sizeof(path), "%s", name);
		else
			snprintf(path, sizeof(path), "%s%s", p->d->script_dir ? p->d->script_dir : "",
				 name);
		if (access(path, R_OK) == 0)
			return pp_include_text(p->d, path, inc, p->err);
		return cd_err(p, at, "#include \"%s\": no such file (add a directory with -I)", name);
	}
	if (p->d->kconfig_missing) { /* bpftrace's clang fails on it first */
		nat.len = (int)j + 2;
		return cd_err(p, nat, "'%s' file not found", p->d->kconfig_missing);
	}
	if (find_angle_header(p->d, name, path, sizeof(path)))
		return !path[0] || pp_include_text(p->d, path, inc, p->err);
	nat.len = (int)j + 2;
	return cd_err(p, nat, "'%s' file not found", name);
}

/* the macro name after #define/#ifdef/#ifndef/#undef, on the same line */
static bool pp_name(CP *p, Loc at, const char *directive)
{
	if (!cd_next(p))
		return false;
	if (p->tk != CT_IDENT || p->bol)
		return cd_err(p, p->bol || p->tk == CT_EOF ? at : p->tloc, "#%s needs a macro name",
			      directive);
	return true;
}

static bool pp_define(CP *p, Loc at)
{
	if (!pp_name(p, at, "define"))
		return false;
	char *name = cd_tokdup(p);
	if (cd_ch(p, 0) == '(')
		return cd_err(p, p->tloc, "macros with arguments are not supported (#define %s(...)); "
			    "only #define NAME constant", name);
	char rest[512];
	pp_rest(p, rest, sizeof(rest));
	if (!rest[0]) {
		cd_add_macro(p->d, name, ""); /* a flag, for #ifdef */
		return true;
	}
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
	if (sub.tk == CT_STR) {
		cd_add_macro(p->d, name, ""); /* strings: not usable as constants */
		return true;
	}
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

static bool pp_active(const CP *p)
{
	return !p->ncond || (p->cond[p->ncond - 1] & PP_ACTIVE);
}

/* the value of an #if/#elif line (the rest of the line) */
static bool pp_if_value(CP *p, bool *val)
{
	char rest[512];
	Loc at = {p->line, p->col, 1};
	pp_rest(p, rest, sizeof(rest));
	CP sub = {.d = p->d, .s = rest, .line = at.line, .col = at.col, .file = p->file,
		  .inc = p->inc, .err = p->err, .pp_if = true};
	int64_t v;
	if (!cd_next(&sub))
		return false;
	if (sub.tk == CT_EOF)
		return cd_err(p, at, "#if with no expression");
	if (!cd_cexpr(&sub, &v))
		return false;
	if (sub.tk != CT_EOF) {
		char b[48];
		return cd_err(p, sub.tloc, "expected the end of the #if line, found %s",
			      cd_tokdesc(&sub, b, sizeof(b)));
	}
	*val = v != 0;
	return true;
}

/* #if, #ifdef, #ifndef: push a level (evaluated only inside a taken branch) */
static bool pp_open(CP *p, Loc at, const char *kind)
{
	if (p->ncond >= MAX_NEST)
		return cd_err(p, at, "#if nested too deeply");
	bool parent = pp_active(p), val = false;
	if (!strcmp(kind, "if")) {
		if (parent && !pp_if_value(p, &val))
			return false;
	} else if (parent) {
		if (!pp_name(p, at, kind))
			return false;
		char name[128];
		snprintf(name, sizeof(name), "%.*s", p->tl, p->ts);
		val = cdefs_defined(p->d, name) == !strcmp(kind, "ifdef");
	}
	char rest[512];
	pp_rest(p, rest, sizeof(rest));
	p->cond_at[p->ncond] = at;
	p->cond[p->ncond++] = (unsigned char)((parent && val ? PP_ACTIVE | PP_TAKEN : 0) |
					      (parent ? PP_PARENT : 0));
	return true;
}

/* #elif, #else, #endif */
static bool pp_branch(CP *p, Loc at, const char *kind)
{
	if (!p->ncond)
		return cd_err(p, at, "#%s without #if", kind);
	unsigned char *c = &p->cond[p->ncond - 1];
	if (!strcmp(kind, "endif")) {
		p->ncond--;
	} else if (!strcmp(kind, "else")) {
		*c = (unsigned char)((*c & PP_PARENT) && !(*c & PP_TAKEN) ? *c | PP_ACTIVE | PP_TAKEN
									   : *c & ~PP_ACTIVE);
	} else {
		bool val = false;
		if ((*c & PP_PARENT) && !(*c & PP_TAKEN) && !pp_if_value(p, &val))
			return false;
		*c = (unsigned char)(val ? *c | PP_ACTIVE | PP_TAKEN : *c & ~PP_ACTIVE);
	}
	char rest[512];
	pp_rest(p, rest, sizeof(rest));
	return true;
}

static bool pp_undef(CP *p, Loc at)
{
	if (!pp_name(p, at, "undef"))
		return false;
	char name[128];
	snprintf(name, sizeof(name), "%.*s", p->tl, p->ts);
	for (int i = 0; i < p->d->names.n; i++) {
		CName *n = &p->d->names.v[i];
		if ((n->kind == CN_CONST || n->kind == CN_MACRO) && !strcmp(n->name, name))
			n->name = "";
	}
	char rest[512];
	pp_rest(p, rest, sizeof(rest));
	return true;
}

/* one directive: the current token is its name (after '#') */
static bool pp_one(CP *p, Loc at)
{
	static const char *const opens[] = {"if", "ifdef", "ifndef"};
	static const char *const branches[] = {"elif", "else", "endif"};
	for (int i = 0; i < 3; i++) {
		if (cd_is(p, opens[i]))
			return pp_open(p, at, opens[i]);
		if (cd_is(p, branches[i]))
			return pp_branch(p, at, branches[i]);
	}
	char rest[512];
	if (!pp_active(p)) {
		pp_rest(p, rest, sizeof(rest));
		return true;
	}
	if (cd_is(p, "include"))
		return pp_include(p, at);
	if (cd_is(p, "define"))
		return pp_define(p, at);
	if (cd_is(p, "undef"))
		return pp_undef(p, at);
	if (cd_is(p, "error")) {
		pp_rest(p, rest, sizeof(rest));
		return cd_err(p, at, "#error%s", rest);
	}
	if (cd_is(p, "pragma") || cd_is(p, "warning")) {
		pp_rest(p, rest, sizeof(rest));
		return true;
	}
	char b[48];
	return cd_err(p, p->tloc, "unsupported preprocessor directive %s", cd_tokdesc(p, b, sizeof(b)));
}

/* Inside a branch not taken: skip to the next line that starts with '#'
 * and read its directive name; false at the end of the text. */
static bool skip_to_directive(CP *p, Loc *at)
{
	for (;;) {
		while (cd_ch(p, 0) && cd_ch(p, 0) != '\n')
			cd_adv(p, 1);
		if (!cd_ch(p, 0))
			return false;
		cd_adv(p, 1);
		while (cd_ch(p, 0) == ' ' || cd_ch(p, 0) == '\t')
			cd_adv(p, 1);
		if (cd_ch(p, 0) == '#') {
			*at = (Loc){p->line, p->col, 1};
			cd_adv(p, 1);
			return cd_next(p);
		}
	}
}

bool cd_directive(CP *p)
{
	Loc at = p->tloc;
	if (!cd_next(p) || !pp_one(p, at))
		return false;
	while (!pp_active(p)) {
		if (!skip_to_directive(p, &at))
			return cd_pp_end(p);
		if (!pp_one(p, at))
			return false;
	}
	return true;
}

bool cd_pp_end(CP *p)
{
	if (p->ncond)
		return cd_err(p, p->cond_at[p->ncond - 1], "unterminated conditional directive");
	return true;
}
