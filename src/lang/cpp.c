/* The text preprocessor's driver (cpp.h): directives, #include, the
 * conditional groups, and the output text with its line map. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpp_int.h"

#define INCLUDE_DEPTH_MAX 200
#define INCLUDE_SIZE_MAX (16 << 20)

typedef struct Cond {
	const PTok *at;  /* the #if/#ifdef/#ifndef */
	const char *kind; /* the last directive of the group, for "unterminated #..." */
	bool active, taken, seen_else, parent;
} Cond;

typedef struct Run {
	Cpp *c;
	Cond conds[COND_MAX * 4];
	int nconds;
	StrBuf out;
	VEC(CppLine) lines;
	const char *cur_file;
	int cur_line;
	const PTok *prev; /* the last token written on the current output line */
	bool line_open;   /* the current output line has text */
	bool force_new;   /* a directive line was passed on: the next token starts a line */
	int cond_base[INCLUDE_DEPTH_MAX + 1]; /* nconds when each open file began */
	VEC(const char *) once; /* files with #pragma once */
} Run;

/* a diagnostic as gcc 12 prints it: "FILE:L[:C]: KIND: MSG", then the
 * line and a caret under the culprit (none when line is 0) */
static void put_diag(StrBuf *b, const char *file, int line, int col, int len, const char *source,
		     const char *kind, const char *msg)
{
	if (col > 0)
		sb_printf(b, "%s:%d:%d: %s: %s\n", file, line, col, kind, msg);
	else
		sb_printf(b, "%s:%d: %s: %s\n", file, line, kind, msg);
	if (!source[0] && line <= 0)
		return;
	sb_printf(b, "%5d | %s\n      | ", line, source);
	int width = (int)strlen(source);
	for (int i = 1; i < col && i <= width; i++)
		sb_putc(b, ' ');
	if (col > 0)
		sb_putc(b, '^');
	for (int i = 1; col > 0 && i < len && col + i <= width; i++)
		sb_putc(b, '~');
	sb_putc(b, '\n');
}

/* the first error of a run, into c->err */
static void set_first(Cpp *c, const PTok *at, bool fatal, const char *msg)
{
	CppError *e = c->err;
	snprintf(e->msg, sizeof(e->msg), "%s", msg);
	snprintf(e->file, sizeof(e->file), "%s", at && at->file ? at->file : "<stdin>");
	e->line = at ? at->line : 0;
	e->col = at ? at->col : 0;
	e->len = at && at->len > 0 ? at->len : 1;
	size_t n = 0; /* the #include lines that led here, innermost first, as gcc */
	for (int d = c->depth - 1; d >= 0 && at && n < sizeof(e->included) - 300; d--)
		n += (size_t)snprintf(e->included + n, sizeof(e->included) - n, "%s %s:%d%s\n",
				      d == c->depth - 1 ? "In file included from" : "                 from",
				      c->includes[d]->file, c->includes[d]->line, d ? "," : ":");
	e->fatal = fatal;
	cpp_display_line(c, e->file, e->line, e->source, sizeof(e->source), &e->col);
}

/* an error after the first, as cpp prints it, at the end of c->err->more */
static void add_more(Cpp *c, const PTok *at, bool fatal, const char *msg)
{
	char source[256];
	int col = at ? at->col : 0;
	const char *file = at && at->file ? at->file : "<stdin>";
	cpp_display_line(c, file, at ? at->line : 0, source, sizeof(source), &col);
	StrBuf b = {0};
	put_diag(&b, file, at ? at->line : 0, col, at && at->len > 0 ? at->len : 1, source,
		 fatal ? "fatal error" : "error", msg);
	size_t have = strlen(c->err->more);
	snprintf(c->err->more + have, sizeof(c->err->more) - have, "%s", b.s ? b.s : "");
	sb_free(&b);
	c->err->fatal = fatal;
}

static void record(Cpp *c, const PTok *at, bool fatal, const char *msg)
{
	if (c->nerrors++)
		add_more(c, at, fatal, msg);
	else
		set_first(c, at, fatal, msg);
}

_Noreturn void cpp_fail(Cpp *c, const PTok *at, bool fatal, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	record(c, at, fatal, msg);
	longjmp(c->fail, 1);
}

/* an error cpp reports and goes on after (a misplaced #else: gcc reads the
 * rest of the file and reports what else it finds), with the line where the
 * conditional began, as gcc says it, when began is not NULL */
static void cpp_error_on(Cpp *c, const PTok *at, const char *msg, const PTok *began)
{
	record(c, at, false, msg);
	if (!began)
		return;
	PTok b = *began;
	b.col = 0;
	add_more(c, &b, false, "the conditional began here");
}

/* --- output -------------------------------------------------------------------- */

static void new_line(Run *r, const char *file, int line)
{
	if (r->lines.n)
		sb_putc(&r->out, '\n');
	vec_push(&r->lines, ((CppLine){file, line}));
	r->cur_file = file;
	r->cur_line = line;
	r->prev = NULL;
	r->line_open = false;
}

/* moves the output to the token's line: the lines between in the same
 * file are kept (blank), so a script's line N stays output line N */
static void goto_line(Run *r, const char *file, int line)
{
	if (!r->lines.n || file != r->cur_file) {
		new_line(r, file, r->lines.n ? line : 1);
		if (r->cur_line == line)
			return;
	}
	while (r->cur_line < line)
		new_line(r, file, r->cur_line + 1);
}

/* would a and b read as other tokens when written together? (cpp writes
 * a space between them then: `-NEG` with NEG -1 is `- -1`) */
static bool would_paste(const PTok *a, const PTok *b)
{
	char last = a->s[a->len - 1], first = b->s[0];
	if (last == '/' && (first == '/' || first == '*'))
		return true;
	bool aw = a->kind == PT_IDENT || a->kind == PT_NUM, bw = b->kind == PT_IDENT || b->kind == PT_NUM;
	if (aw && bw)
		return true;
	if (a->kind == PT_NUM && (first == '.' || ((first == '+' || first == '-') && strchr("eEpP", last))))
		return true;
	if (last == '.' && b->kind == PT_NUM)
		return true;
	if (a->kind != PT_PUNCT || b->kind != PT_PUNCT || a->len > 4)
		return false;
	char buf[8];
	int n = 0;
	for (int i = 0; i < a->len; i++)
		buf[n++] = a->s[i];
	for (int i = 0; i < b->len && i < 3; i++)
		buf[n++] = b->s[i];
	buf[n] = 0;
	PTKind k;
	return cpp_lex_one(buf, &k) > a->len;
}

static void emit(Run *r, const PTok *t)
{
	bool later = r->lines.n && t->file == r->cur_file && t->line > r->cur_line;
	if (r->force_new && !later)
		new_line(r, t->file, t->line);
	else if (!r->lines.n || t->file != r->cur_file || later)
		goto_line(r, t->file, t->line);
	r->force_new = false;
	if (!r->line_open) {
		for (int i = 0; i < t->lead; i++)
			sb_putc(&r->out, ' ');
	} else if (t->space || (r->prev && would_paste(r->prev, t))) {
		sb_putc(&r->out, ' ');
	}
	sb_putn(&r->out, t->s, (size_t)t->len);
	r->prev = t;
	r->line_open = true;
}

/* a directive line passed on as written (#pragma, #ident, #include <...>),
 * on a line of its own */
static void emit_raw_line(Run *r, const PTok *hash, const PTok *last)
{
	goto_line(r, hash->file, hash->line);
	if (r->line_open || r->force_new)
		new_line(r, hash->file, hash->line);
	sb_putn(&r->out, hash->s, (size_t)(last->s + last->len - hash->s));
	r->line_open = true;
	r->prev = NULL;
	r->force_new = true;
}

/* --- directives ------------------------------------------------------------------ */

/* the tokens after t up to the end of its line, as a list ending in PT_EOF;
 * *rest is the first token of the next line */
static PTok *line_tokens(Cpp *c, PTok *t, PTok **rest)
{
	PTok head = {0}, *tail = &head;
	for (; !t->bol && t->kind != PT_EOF; t = t->next)
		tail = tail->next = cpp_tok_copy(c, t);
	tail->next = cpp_eof(c, t);
	*rest = t;
	return head.next;
}

static PTok *skip_line(PTok *t)
{
	while (!t->bol && t->kind != PT_EOF)
		t = t->next;
	return t;
}

static const PTok *last_on_line(const PTok *t)
{
	while (!t->next->bol && t->next->kind != PT_EOF)
		t = t->next;
	return t;
}

static bool active(const Run *r)
{
	return !r->nconds || r->conds[r->nconds - 1].active;
}

static void open_cond(Run *r, const PTok *at, const char *kind, bool val)
{
	if (r->nconds == (int)(sizeof(r->conds) / sizeof(r->conds[0])))
		cpp_fail(r->c, at, true, "#%s nested too deeply", kind);
	bool parent = active(r);
	r->conds[r->nconds++] = (Cond){at, kind, parent && val, parent && val, false, parent};
}

/* the name after #ifdef/#ifndef/#undef/#define */
static PTok *macro_name(Cpp *c, PTok *dir)
{
	PTok *n = dir->next;
	if (n->bol || n->kind == PT_EOF) {
		PTok at = *dir;
		at.col += dir->len;
		cpp_fail(c, &at, false, "no macro name given in #%.*s directive", dir->len, dir->s);
	}
	if (n->kind != PT_IDENT)
		cpp_fail(c, n, false, "macro names must be identifiers");
	return n;
}

static PTok *do_conditional(Run *r, PTok *dir)
{
	Cpp *c = r->c;
	PTok *rest;
	const char *d = cpp_tok_str(c, dir);
	if (!strcmp(d, "if") || !strcmp(d, "ifdef") || !strcmp(d, "ifndef")) {
		bool val = false;
		if (!active(r)) {
			rest = skip_line(dir);
		} else if (!strcmp(d, "if")) {
			PTok *line = line_tokens(c, dir->next, &rest);
			PTok at = *dir;
			at.col += dir->len;
			val = cpp_if_value(c, line, &at);
		} else {
			val = (cpp_find(c, macro_name(c, dir)) != NULL) == !strcmp(d, "ifdef");
			rest = skip_line(dir);
		}
		open_cond(r, dir, d, val);
		return rest;
	}
	if (!r->nconds) {
		char msg[64];
		snprintf(msg, sizeof(msg), "#%s without #if", d);
		cpp_error_on(c, dir, msg, NULL);
		return skip_line(dir);
	}
	Cond *k = &r->conds[r->nconds - 1];
	if (!strcmp(d, "endif")) {
		r->nconds--;
		return skip_line(dir);
	}
	if (k->seen_else) {
		char msg[64];
		snprintf(msg, sizeof(msg), "#%s after #else", d);
		cpp_error_on(c, dir, msg, k->at);
		return skip_line(dir);
	}
	k->kind = d;
	if (!strcmp(d, "else")) {
		k->seen_else = true;
		k->active = k->parent && !k->taken;
		k->taken = true;
		return skip_line(dir);
	}
	/* #elif: evaluated only when no branch was taken yet */
	if (!k->parent || k->taken) {
		k->active = false;
		return skip_line(dir);
	}
	PTok *line = line_tokens(c, dir->next, &rest);
	PTok at = *dir;
	at.col += dir->len;
	k->active = k->taken = cpp_if_value(c, line, &at);
	return rest;
}

static bool is_conditional(const PTok *dir)
{
	static const char *const names[] = {"if", "ifdef", "ifndef", "elif", "else", "endif"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (cpp_is(dir, names[i]))
			return true;
	return false;
}

static PTok *include_file(Run *r, const PTok *at, const char *path, PTok *rest);
static PTok *include_text(Run *r, const PTok *at, const char *path, const char *text, PTok *rest);

bool cpp_readable(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, R_OK) == 0;
}

static bool in_dirs(const char *const *dirs, int n, const char *name, char *path, size_t len)
{
	for (int i = 0; i < n; i++) {
		size_t dl = strlen(dirs[i]);
		snprintf(path, len, "%s%s%s", dirs[i], dl && dirs[i][dl - 1] == '/' ? "" : "/", name);
		if (cpp_readable(path))
			return true;
	}
	return false;
}

/* the directory part of a file name: "" or "dir/" */
static void dir_of(const char *file, char *dir, size_t len)
{
	const char *slash = strrchr(file, '/');
	snprintf(dir, len, "%.*s", slash ? (int)(slash - file + 1) : 0, file);
}

static void show_include(Cpp *c, const char *path)
{
	if (!c->o->show_includes)
		return;
	for (int i = 0; i <= c->depth; i++)
		sb_putc(&c->warnings, '.');
	sb_printf(&c->warnings, " %s\n", path);
}

/* "name" next to the including file first (gcc's order), then in the -I
 * directories; <name> in the -I directories */
static bool find_include(Cpp *c, const char *from, const char *name, bool quoted, char *path, size_t n)
{
	if (name[0] == '/') {
		snprintf(path, n, "%s", name);
		return cpp_readable(path);
	}
	char here[512];
	dir_of(from, here, sizeof(here));
	const char *dirs[] = {here[0] ? here : "."};
	if (quoted && in_dirs(dirs, 1, name, path, n)) {
		if (!here[0]) /* "./x.h" is "x.h", as gcc names it */
			memmove(path, path + 2, strlen(path + 2) + 1);
		return true;
	}
	return in_dirs(c->o->include_dirs, c->o->ninclude_dirs, name, path, n);
}

static PTok *do_include(Run *r, PTok *hash, PTok *dir)
{
	Cpp *c = r->c;
	PTok *rest, *line = line_tokens(c, dir->next, &rest);
	if (line->kind == PT_IDENT) /* #include MACRO */
		line = cpp_expand_list(c, line);
	char name[512];
	bool quoted = line->kind == PT_STR;
	if (quoted) {
		snprintf(name, sizeof(name), "%.*s", line->len - 2, line->s + 1);
	} else if (cpp_is(line, "<")) {
		StrBuf b = {0};
		const PTok *t = line->next;
		for (; t->kind != PT_EOF && !cpp_is(t, ">"); t = t->next) {
			if (t != line->next && t->space)
				sb_putc(&b, ' ');
			sb_putn(&b, t->s, (size_t)t->len);
		}
		snprintf(name, sizeof(name), "%s", b.s ? b.s : "");
		sb_free(&b);
		if (t->kind == PT_EOF)
			cpp_fail(c, line, false, "missing terminating > character");
	} else {
		cpp_fail(c, line->kind == PT_EOF ? dir : line, false,
			 "#include expects \"FILENAME\" or <FILENAME>");
	}
	if (!name[0])
		cpp_fail(c, line, false, "empty filename in #include");
	if (c->o->no_includes)
		cpp_fail(c, line, true, "%s: #include is not allowed here", name);
	char path[1200];
	if (find_include(c, hash->file, name, quoted, path, sizeof(path)))
		return include_file(r, line, path, rest);
	const char *builtin;
	if (name[0] != '/' && c->o->system_headers && cpp_system_header(name, path, sizeof(path), &builtin))
		return builtin ? include_text(r, line, path, builtin, rest) : include_file(r, line, path, rest);
	cpp_fail(c, line, true, "%s: No such file or directory", name);
}

/* a file wrapped in `#ifndef GUARD ... #endif` whose GUARD is defined: gcc
 * does not read it again (nor list it under -H) */
static bool guard_skips(Cpp *c, const PTok *t)
{
	if (!cpp_is(t, "#") || !cpp_is(t->next, "ifndef") || t->next->next->kind != PT_IDENT ||
	    t->next->next->bol || !cpp_find(c, t->next->next))
		return false;
	/* the #endif matching that #ifndef must end the file (glibc's
	 * bits/typesizes.h opens with an #ifndef/#error/#endif of another name) */
	int depth = 1;
	for (t = t->next; t->kind != PT_EOF; t = t->next) {
		if (!t->bol || !cpp_is(t, "#"))
			continue;
		const PTok *d = t->next;
		if (cpp_is(d, "if") || cpp_is(d, "ifdef") || cpp_is(d, "ifndef"))
			depth++;
		else if (cpp_is(d, "endif") && --depth == 0)
			break;
	}
	if (t->kind == PT_EOF)
		return false;
	for (t = t->next; t->kind != PT_EOF; t = t->next)
		if (t->bol)
			return false;
	return true;
}

static PTok *include_file(Run *r, const PTok *at, const char *path, PTok *rest)
{
	Cpp *c = r->c;
	for (int i = 0; i < r->once.n; i++)
		if (!strcmp(r->once.v[i], path))
			return rest;
	struct stat st;
	char *text = stat(path, &st) == 0 && st.st_size <= INCLUDE_SIZE_MAX ? read_file_all(path, NULL) : NULL;
	if (!text)
		cpp_fail(c, at, true, "%s: %s", path, strerror(errno ? errno : EFBIG));
	PTok *toks = include_text(r, at, path, text, rest);
	free(text);
	return toks;
}

/* a file's text in place of the #include at `at` */
static PTok *include_text(Run *r, const PTok *at, const char *path, const char *text, PTok *rest)
{
	Cpp *c = r->c;
	if (c->depth + 1 >= INCLUDE_DEPTH_MAX) { /* gcc counts the main file: 200 deep */
		PTok end = *at;
		end.col += at->len;
		end.len = 1;
		cpp_fail(c, &end, false,
			 "#include nested depth %d exceeds maximum of %d (use -fmax-include-depth=DEPTH to "
			 "increase the maximum)", c->depth + 1, INCLUDE_DEPTH_MAX);
	}
	const char *file = arena_strdup(c->out_arena, path);
	char *copy = cpp_add_source(c, file, text);
	PTok *toks = cpp_lex(c, copy, file);
	if (guard_skips(c, toks))
		return rest;
	show_include(c, path);
	PTok *t = toks;
	while (t->next)
		t = t->next;
	t->next = rest; /* the file's PT_EOF, then the includer's text */
	t->end_of_include = true;
	c->includes[c->depth] = at;
	r->cond_base[++c->depth] = r->nconds;
	return toks;
}

static void add_warning(Cpp *c, const PTok *at, const char *what, const PTok *first, const PTok *last)
{
	sb_printf(&c->warnings, "%s:%d:%d: warning: #%s", at->file, at->line, at->col, what);
	if (first)
		sb_printf(&c->warnings, " %.*s", (int)(last->s + last->len - first->s), first->s);
	sb_putc(&c->warnings, '\n');
}

/* a directive in a group being read; returns the token after its line */
static PTok *do_directive(Run *r, PTok *hash)
{
	Cpp *c = r->c;
	PTok *dir = hash->next;
	if (dir->bol || dir->kind == PT_EOF)
		return dir; /* the null directive */
	if (is_conditional(dir))
		return do_conditional(r, dir);
	if (!active(r))
		return skip_line(dir);
	PTok *rest;
	const PTok *first = dir->next->bol || dir->next->kind == PT_EOF ? NULL : dir->next;
	const PTok *last = last_on_line(dir);
	if (cpp_is(dir, "define")) {
		cpp_define(c, &rest, macro_name(c, dir));
		return rest;
	}
	if (cpp_is(dir, "undef")) {
		PTok *n = macro_name(c, dir);
		cpp_undef(c, cpp_tok_str(c, n));
		return skip_line(n);
	}
	if (cpp_is(dir, "include"))
		return do_include(r, hash, dir);
	if (cpp_is(dir, "error"))
		cpp_fail(c, dir, false, "#error%s%.*s", first ? " " : "",
			 first ? (int)(last->s + last->len - first->s) : 0, first ? first->s : "");
	if (cpp_is(dir, "warning")) {
		add_warning(c, dir, "warning", first, last);
		return skip_line(dir);
	}
	if (cpp_is(dir, "pragma") && first && cpp_is(first, "once") && first->next->bol) {
		vec_push(&r->once, hash->file);
		return skip_line(dir);
	}
	if (cpp_is(dir, "pragma") || cpp_is(dir, "ident") || cpp_is(dir, "sccs")) {
		emit_raw_line(r, hash, last);
		return skip_line(dir);
	}
	if (cpp_is(dir, "line") || dir->kind == PT_NUM)
		return skip_line(dir); /* line markers change nothing here */
	cpp_fail(c, dir, false, "invalid preprocessing directive #%.*s", dir->len, dir->s);
}

static void run_tokens(Run *r, PTok *t)
{
	Cpp *c = r->c;
	r->cond_base[c->depth] = r->nconds;
	for (;;) {
		if (t->kind == PT_EOF) {
			if (r->nconds > r->cond_base[c->depth]) {
				const Cond *k = &r->conds[r->nconds - 1];
				PTok at = *k->at;
				at.col = 0;
				cpp_fail(c, &at, false, "unterminated #%s", k->kind);
			}
			if (!t->end_of_include)
				return;
			c->depth--;
			t = t->next;
			continue;
		}
		if (t->bol && cpp_is(t, "#")) {
			t = do_directive(r, t);
			continue;
		}
		if (!active(r)) {
			t = t->next;
			continue;
		}
		if (cpp_expand(c, &t))
			continue;
		emit(r, t);
		t = t->next;
	}
}

/* --- the run ----------------------------------------------------------------------- */

char *cpp_add_source(Cpp *c, const char *file, const char *text)
{
	struct SrcFile *f = arena_alloc(c->a, sizeof(*f));
	f->file = file;
	f->text = arena_strdup(c->a, text);
	f->next = c->sources;
	c->sources = f;
	return (char *)f->text;
}

void cpp_display_line(const Cpp *c, const char *file, int line, char *out, size_t n, int *col)
{
	out[0] = 0;
	for (const struct SrcFile *f = c->sources; f && line > 0; f = f->next) {
		if (strcmp(f->file, file))
			continue;
		const char *s = f->text;
		for (int l = 1; *s && l < line; s++)
			l += *s == '\n';
		size_t j = 0;
		int shown = col ? *col : 0;
		for (int i = 0; s[i] && s[i] != '\n' && j + 9 < n; i++) {
			if (col && i == *col - 1)
				shown = (int)j + 1;
			if (s[i] != '\t') {
				out[j++] = s[i];
				continue;
			}
			do
				out[j++] = ' ';
			while (j % 8);
		}
		out[j] = 0;
		if (col)
			*col = shown;
		return;
	}
}
/* DTrace's names (dt_open.c's cpp arguments) and those of gcc's a D script
 * may test: the system, the word size, the byte order */
static void predefines(StrBuf *b)
{
	static const char *const names[] = {
		"__linux 1", "__unix 1", "__SVR4 1", "__SUNW_D 1", "__SUNW_D_64 1", "__Linux 1",
		"__SUNW_D_VERSION 0x0100d000", /* D 1.13, as -V says */
		"__linux__ 1", "__unix__ 1", "__STDC__ 1", "__STDC_VERSION__ 199901L",
		"__LP64__ 1", "_LP64 1", "__CHAR_BIT__ 8", "__SIZEOF_INT__ 4", "__SIZEOF_LONG__ 8",
		"__SIZEOF_LONG_LONG__ 8", "__SIZEOF_POINTER__ 8", "__ORDER_LITTLE_ENDIAN__ 1234",
		"__ORDER_BIG_ENDIAN__ 4321",
		/* gcc's, whether __GNUC__ is or not: glibc's glob.h names __SIZE_TYPE__ */
		"__SIZE_TYPE__ long unsigned int", "__PTRDIFF_TYPE__ long int", "__WCHAR_TYPE__ int",
		"__WINT_TYPE__ unsigned int", "__INTMAX_TYPE__ long int",
		"__UINTMAX_TYPE__ long unsigned int", "__CHAR16_TYPE__ short unsigned int",
		"__CHAR32_TYPE__ unsigned int", "__SIZEOF_SHORT__ 2", "__SIZEOF_FLOAT__ 4",
		"__SIZEOF_DOUBLE__ 8", "__SIZEOF_LONG_DOUBLE__ 16", "__SIZEOF_SIZE_T__ 8",
		"__SIZEOF_WCHAR_T__ 4", "__SIZEOF_WINT_T__ 4", "__SIZEOF_PTRDIFF_T__ 8",
		"__SCHAR_MAX__ 0x7f", "__SHRT_MAX__ 0x7fff", "__INT_MAX__ 0x7fffffff",
		"__LONG_MAX__ 0x7fffffffffffffffL", "__LONG_LONG_MAX__ 0x7fffffffffffffffLL",
		"__WCHAR_MAX__ 0x7fffffff", "__SIZE_MAX__ 0xffffffffffffffffUL",
#if defined(__x86_64__)
		"__amd64 1", "__x86_64 1", "__x86_64__ 1", "__amd64__ 1",
#elif defined(__aarch64__)
		"__aarch64__ 1",
#endif
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		"__BYTE_ORDER__ __ORDER_BIG_ENDIAN__",
#else
		"__BYTE_ORDER__ __ORDER_LITTLE_ENDIAN__",
#endif
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		sb_printf(b, "#define %s\n", names[i]);
}

/* -D NAME[=VALUE] and -U NAME as directive lines */
static void command_line(const CppOpts *o, StrBuf *b)
{
	for (int i = 0; i < o->ndefines; i++) {
		const char *d = o->defines[i] + 1;
		if (o->defines[i][0] == 'U') {
			sb_printf(b, "#undef %s\n", d);
			continue;
		}
		const char *eq = strchr(d, '=');
		if (eq)
			sb_printf(b, "#define %.*s %s\n", (int)(eq - d), d, eq + 1);
		else
			sb_printf(b, "#define %s 1\n", d);
	}
}

static void run_text(Run *r, const char *file, const char *text)
{
	char *copy = cpp_add_source(r->c, file, text);
	if (copy[0] == '#' && copy[1] == '!') /* the interpreter line: dtrace skips it */
		for (char *p = copy; *p && *p != '\n'; p++)
			*p = ' ';
	run_tokens(r, cpp_lex(r->c, copy, file));
}

/* text made here, run as the file name says; b is emptied (before anything
 * can fail: errors unwind past this frame) */
static void run_made(Run *r, const char *name, StrBuf *b)
{
	char *text = arena_strdup(r->c->a, b->s ? b->s : "");
	sb_free(b);
	run_text(r, name, text);
}

static void run_all(Run *r, const char *text, const char *path)
{
	Cpp *c = r->c;
	StrBuf b = {0};
	if (c->o->predefine)
		predefines(&b);
	command_line(c->o, &b);
	run_made(r, "<command-line>", &b);
	sb_free(&b);
	cpp_builtin(c, "__LINE__", MB_LINE);
	cpp_builtin(c, "__FILE__", MB_FILE);
	r->lines.n = 0;
	r->out.len = 0;
	run_text(r, arena_strdup(c->out_arena, path), text);
}

bool cpp_run(const char *text, const char *path, const CppOpts *o, CppOut *out, CppError *err)
{
	memset(out, 0, sizeof(*out));
	memset(err, 0, sizeof(*err));
	Arena a = {0};
	Cpp c = {.o = o, .a = &a, .err = err, .budget = o->max_tokens > 0 ? o->max_tokens : TOKENS_MAX, .out_arena = &out->arena};
	Run *r = xcalloc(1, sizeof(*r));
	r->c = &c;
	volatile bool ok = false;
	if (!setjmp(c.fail)) {
		run_all(r, text, path);
		ok = !c.nerrors;
	}
	if (ok) {
		sb_putc(&r->out, '\n');
		out->text = r->out.s;
		if (!r->lines.n)
			vec_push(&r->lines, ((CppLine){path, 1}));
		out->lines = r->lines.v;
		out->nlines = r->lines.n;
		out->warnings = c.warnings.s;
	} else {
		sb_free(&r->out);
		vec_free(&r->lines);
		sb_free(&c.warnings);
		arena_free(&out->arena);
	}
	vec_free(&r->once);
	free(r);
	arena_free(&a);
	return ok;
}

void cpp_out_free(CppOut *out)
{
	free(out->text);
	free(out->lines);
	free(out->warnings);
	arena_free(&out->arena);
	memset(out, 0, sizeof(*out));
}

CppLine cpp_origin(const CppOut *out, int line)
{
	if (line < 1 || !out->nlines)
		return (CppLine){NULL, line};
	return out->lines[line > out->nlines ? out->nlines - 1 : line - 1];
}

void cpp_error_print(FILE *f, const CppError *e)
{
	StrBuf b = {0};
	put_diag(&b, e->file, e->line, e->col, e->len, e->source, e->fatal ? "fatal error" : "error", e->msg);
	fputs(e->included, f);
	fputs(b.s, f);
	fputs(e->note, f);
	fputs(e->more, f);
	if (e->fatal)
		fputs("compilation terminated.\n", f);
	sb_free(&b);
}
