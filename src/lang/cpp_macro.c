/* Macros of the text preprocessor (cpp.h): definitions and expansion.
 * Expansion follows the C standard's algorithm: every token carries the
 * set of macro names it came out of (its hide set) and is not expanded as
 * one of them again, so `#define foo foo + 1` stops after one step; the
 * arguments of a function-like macro are expanded on their own before
 * they replace a parameter, except next to # (stringizing) and ##
 * (pasting); the result is scanned again with the rest of the text. */
#include <stdio.h>
#include <string.h>

#include "cpp_int.h"

#define EXPAND_DEPTH_MAX 400

static bool hide_has(const Hide *h, const char *name)
{
	for (; h; h = h->next)
		if (!strcmp(h->name, name))
			return true;
	return false;
}

static Hide *hide_add(Cpp *c, Hide *h, const char *name)
{
	if (hide_has(h, name))
		return h;
	Hide *n = arena_alloc(c->a, sizeof(*n));
	n->name = name;
	n->next = h;
	return n;
}

static Hide *hide_union(Cpp *c, Hide *a, Hide *b)
{
	if (!a || a == b) /* the usual case: shared, not copied */
		return b;
	for (; b; b = b->next)
		a = hide_add(c, a, b->name);
	return a;
}

static Hide *hide_common(Cpp *c, const Hide *a, const Hide *b)
{
	Hide *r = NULL;
	for (; a; a = a->next)
		if (hide_has(b, a->name))
			r = hide_add(c, r, a->name);
	return r;
}

Macro *cpp_find(Cpp *c, const PTok *t)
{
	if (t->kind != PT_IDENT)
		return NULL;
	for (Macro *m = c->macros; m; m = m->next)
		if ((int)strlen(m->name) == t->len && !memcmp(m->name, t->s, (size_t)t->len))
			return m;
	return NULL;
}

void cpp_undef(Cpp *c, const char *name)
{
	for (Macro **m = &c->macros; *m; m = &(*m)->next)
		if (!strcmp((*m)->name, name)) {
			*m = (*m)->next;
			return;
		}
}

void cpp_builtin(Cpp *c, const char *name, int which)
{
	Macro *m = arena_alloc(c->a, sizeof(*m));
	m->name = name;
	m->builtin = which;
	m->next = c->macros;
	c->macros = m;
}

/* --- #define ------------------------------------------------------------------ */

static int param_index(const Macro *m, const PTok *t)
{
	for (int i = 0; t->kind == PT_IDENT && i < m->nparams; i++)
		if ((int)strlen(m->params[i]) == t->len && !memcmp(m->params[i], t->s, (size_t)t->len))
			return i;
	return -1;
}

/* (a, b, ...) after a function-like macro's name; *tok ends past ')' */
static void read_params(Cpp *c, Macro *m, PTok **tok)
{
	PTok *t = (*tok)->next;
	if (cpp_is(t, ")")) {
		*tok = t->next;
		return;
	}
	for (;;) {
		if (t->bol || t->kind == PT_EOF)
			cpp_fail(c, t, false, "missing ')' in macro parameter list");
		const char *name;
		if (cpp_is(t, "...")) {
			name = "__VA_ARGS__";
			m->variadic = true;
		} else if (t->kind == PT_IDENT) {
			name = cpp_tok_str(c, t);
			if (param_index(m, t) >= 0)
				cpp_fail(c, t, false, "duplicate macro parameter \"%s\"", name);
			if (cpp_is(t->next, "...")) { /* GNU's named variadic: args... */
				m->variadic = true;
				t = t->next;
			}
		} else {
			cpp_fail(c, t, false, "expected parameter name, found \"%.*s\"", t->len, t->s);
		}
		m->params = arena_grow(c->a, m->params, m->nparams, sizeof(*m->params));
		m->params[m->nparams++] = name;
		t = t->next;
		if (cpp_is(t, ")"))
			break;
		if (m->variadic || !cpp_is(t, ",") || t->bol)
			cpp_fail(c, t, false, t->bol || t->kind == PT_EOF ? "missing ')' in macro parameter list"
					     : "expected ',' or ')', found \"%.*s\"", t->len, t->s);
		t = t->next;
	}
	*tok = t->next;
}

static bool same_body(const PTok *a, const PTok *b)
{
	for (; a->kind != PT_EOF && b->kind != PT_EOF; a = a->next, b = b->next)
		if (a->len != b->len || memcmp(a->s, b->s, (size_t)a->len) || (a->space != b->space && a != b))
			return false;
	return a->kind == b->kind;
}

static bool same_macro(const Macro *a, const Macro *b)
{
	if (a->funclike != b->funclike || a->nparams != b->nparams || a->variadic != b->variadic)
		return false;
	for (int i = 0; i < a->nparams; i++)
		if (strcmp(a->params[i], b->params[i]))
			return false;
	return same_body(a->body, b->body);
}

static void check_body(Cpp *c, const Macro *m)
{
	for (const PTok *t = m->body; t->kind != PT_EOF; t = t->next) {
		if (cpp_is(t, "##") && (t == m->body || t->next->kind == PT_EOF))
			cpp_fail(c, t, false, "'##' cannot appear at either end of a macro expansion");
		if (m->funclike && cpp_is(t, "#") && param_index(m, t->next) < 0)
			cpp_fail(c, t, false, "'#' is not followed by a macro parameter");
	}
}

void cpp_define(Cpp *c, PTok **rest, PTok *name)
{
	if (cpp_is(name, "defined"))
		cpp_fail(c, name, false, "\"defined\" cannot be used as a macro name");
	Macro *m = arena_alloc(c->a, sizeof(*m));
	m->name = cpp_tok_str(c, name);
	m->def = name;
	PTok *t = name->next;
	if (cpp_is(t, "(") && !t->space && !t->bol) {
		m->funclike = true;
		read_params(c, m, &t);
	}
	PTok head = {0}, *tail = &head;
	for (; !t->bol && t->kind != PT_EOF; t = t->next)
		tail = tail->next = cpp_tok_copy(c, t);
	tail->next = cpp_eof(c, name);
	if (head.next != tail->next)
		head.next->space = false;
	m->body = head.next;
	*rest = t;
	check_body(c, m);
	Macro *old = cpp_find(c, name);
	if (old && !same_macro(old, m))
		sb_printf(&c->warnings, "%s:%d:%d: warning: \"%s\" redefined\n", name->file, name->line,
			  name->col, m->name);
	cpp_undef(c, m->name);
	m->next = c->macros;
	c->macros = m;
}

/* --- expansion ----------------------------------------------------------------- */

typedef struct List {
	PTok head, *tail;
} List;

static void list_init(List *l)
{
	memset(&l->head, 0, sizeof(l->head));
	l->tail = &l->head;
}

static void list_add(Cpp *c, List *l, const PTok *t)
{
	if (--c->budget < 0)
		cpp_fail(c, t, true, "macro expansion too large (more than %ld tokens)",
			 c->o->max_tokens > 0 ? c->o->max_tokens : TOKENS_MAX);
	l->tail = l->tail->next = cpp_tok_copy(c, t);
}

/* copies of the tokens from t up to an EOF */
static void list_add_all(Cpp *c, List *l, const PTok *t)
{
	for (; t->kind != PT_EOF; t = t->next)
		list_add(c, l, t);
}

typedef struct Arg {
	PTok *raw;      /* as written, ending with PT_EOF */
	PTok *expanded; /* fully macro-expanded, when first needed */
} Arg;

/* the arguments of a call whose '(' is at t; *end is the ')' */
static Arg *read_args(Cpp *c, const Macro *m, PTok *t, PTok **end, int *nargs)
{
	Arg *args = NULL;
	int n = 0, depth = 0;
	List cur;
	list_init(&cur);
	const PTok *prev = t;
	for (t = t->next;; prev = t, t = t->next) {
		if (t->kind == PT_EOF) { /* cpp points past the last token */
			PTok at = *prev;
			at.col += prev->len;
			at.len = 1;
			cpp_fail(c, &at, false, "unterminated argument list invoking macro \"%s\"", m->name);
		}
		bool close = cpp_is(t, ")") && depth == 0;
		bool comma = cpp_is(t, ",") && depth == 0 && !(m->variadic && n == m->nparams - 1);
		if (close || comma) {
			cur.tail->next = cpp_eof(c, t);
			args = arena_grow(c->a, args, n, sizeof(*args));
			args[n++] = (Arg){cur.head.next, NULL};
			list_init(&cur);
			if (close)
				break;
			continue;
		}
		depth += cpp_is(t, "(") - cpp_is(t, ")");
		list_add(c, &cur, t);
		cur.tail->bol = false;
	}
	*end = t;
	*nargs = n;
	return args;
}

/* gcc's note after a wrong argument count */
static void note_defined_here(Cpp *c, const Macro *m)
{
	char line[256];
	cpp_display_line(c, m->def->file, m->def->line, line, sizeof(line), NULL);
	snprintf(c->err->note, sizeof(c->err->note), "%s:%d: note: macro \"%s\" defined here\n%5d | %s\n      | \n",
		 m->def->file, m->def->line, m->name, m->def->line, line);
}

static void check_arg_count(Cpp *c, const Macro *m, const PTok *name, int n)
{
	if (!c->nerrors && m->def && strcmp(m->def->file, "<command-line>") && strcmp(m->def->file, "<built-in>"))
		note_defined_here(c, m); /* the note of the run's first error */
	int need = m->variadic ? m->nparams - 1 : m->nparams;
	if (n < need)
		cpp_fail(c, name, false, "macro \"%s\" requires %d argument%s, but only %d given", m->name,
			 need, need == 1 ? "" : "s", n);
	if (!m->variadic && n > m->nparams)
		cpp_fail(c, name, false, "macro \"%s\" passed %d arguments, but takes just %d", m->name, n,
			 m->nparams);
	c->err->note[0] = 0;
}

static PTok *expand_list(Cpp *c, const PTok *raw, int depth);

PTok *cpp_expand_list(Cpp *c, const PTok *raw)
{
	return expand_list(c, raw, 0);
}

static const PTok *arg_expanded(Cpp *c, Arg *a, int depth)
{
	if (!a->expanded)
		a->expanded = expand_list(c, a->raw, depth + 1);
	return a->expanded;
}

/* #param: the argument's spelling as a string literal */
static PTok *stringize(Cpp *c, const PTok *hash, const PTok *raw)
{
	StrBuf b = {0};
	sb_putc(&b, '"');
	for (const PTok *t = raw; t->kind != PT_EOF; t = t->next) {
		if (t != raw && t->space)
			sb_putc(&b, ' ');
		for (int i = 0; i < t->len; i++) {
			if ((t->kind == PT_STR || t->kind == PT_CHAR) && (t->s[i] == '"' || t->s[i] == '\\'))
				sb_putc(&b, '\\');
			sb_putc(&b, t->s[i]);
		}
	}
	sb_putc(&b, '"');
	PTok *r = cpp_tok_copy(c, hash);
	r->kind = PT_STR;
	r->s = arena_strndup(c->a, b.s, b.len);
	r->len = (int)b.len;
	sb_free(&b);
	return r;
}

/* lhs ## rhs: one token, or an error as cpp's */
static void paste(Cpp *c, PTok *lhs, const PTok *rhs)
{
	size_t n = (size_t)lhs->len + (size_t)rhs->len;
	char *s = arena_alloc(c->a, n + 1);
	memcpy(s, lhs->s, (size_t)lhs->len);
	memcpy(s + lhs->len, rhs->s, (size_t)rhs->len);
	PTKind k;
	if (cpp_lex_one(s, &k) != (int)n)
		cpp_fail(c, lhs, false, "pasting \"%.*s\" and \"%.*s\" does not give a valid preprocessing token",
			 lhs->len, lhs->s, rhs->len, rhs->s);
	lhs->s = s;
	lhs->len = (int)n;
	lhs->kind = k;
}

/* appends rhs's tokens to out, the first pasted onto out's last (unless
 * the left side was an empty argument) */
static void paste_list(Cpp *c, List *out, bool lhs_empty, const PTok *rhs)
{
	if (rhs->kind == PT_EOF)
		return;
	if (lhs_empty || out->tail == &out->head) {
		list_add_all(c, out, rhs);
		return;
	}
	paste(c, out->tail, rhs);
	list_add_all(c, out, rhs->next);
}

static PTok *subst(Cpp *c, const Macro *m, Arg *args, int depth)
{
	List out;
	list_init(&out);
	bool empty_lhs = false; /* the last thing added was an empty argument */
	for (const PTok *t = m->body; t->kind != PT_EOF; t = t->next) {
		int p = param_index(m, t->next);
		if (m->funclike && cpp_is(t, "#") && p >= 0) {
			list_add(c, &out, stringize(c, t, args[p].raw));
			t = t->next;
			empty_lhs = false;
			continue;
		}
		if (cpp_is(t, "##")) {
			const PTok *rhs = t->next;
			int rp = param_index(m, rhs);
			bool va_comma = rp >= 0 && m->variadic && rp == m->nparams - 1 && !empty_lhs &&
					out.tail != &out.head && cpp_is(out.tail, ",");
			if (va_comma && args[rp].raw->kind == PT_EOF) {
				/* GNU: `, ## __VA_ARGS__` drops the comma when there are none */
				PTok *prev = &out.head;
				while (prev->next != out.tail)
					prev = prev->next;
				prev->next = NULL;
				out.tail = prev;
			} else if (va_comma) { /* ... and pastes nothing when there are some */
				list_add_all(c, &out, arg_expanded(c, &args[rp], depth));
			} else if (rp >= 0) {
				paste_list(c, &out, empty_lhs, args[rp].raw);
				empty_lhs = empty_lhs && args[rp].raw->kind == PT_EOF;
			} else {
				PTok one = *rhs;
				one.next = cpp_eof(c, rhs);
				paste_list(c, &out, empty_lhs, &one);
				empty_lhs = false;
			}
			t = rhs;
			continue;
		}
		int tp = param_index(m, t);
		if (tp < 0) {
			list_add(c, &out, t);
			empty_lhs = false;
			continue;
		}
		const PTok *val = cpp_is(t->next, "##") ? args[tp].raw : arg_expanded(c, &args[tp], depth);
		PTok *first = out.tail;
		list_add_all(c, &out, val);
		if (first->next)
			first->next->space = t->space;
		empty_lhs = val->kind == PT_EOF;
	}
	out.tail->next = NULL;
	return out.head.next;
}

static PTok *builtin_token(Cpp *c, const Macro *m, const PTok *at)
{
	PTok *r = cpp_tok_copy(c, at);
	char buf[300];
	if (m->builtin == MB_LINE) {
		r->kind = PT_NUM;
		snprintf(buf, sizeof(buf), "%d", at->line);
	} else {
		r->kind = PT_STR;
		snprintf(buf, sizeof(buf), "\"%s\"", at->file);
	}
	r->s = arena_strdup(c->a, buf);
	r->len = (int)strlen(buf);
	return r;
}

static bool expand_at(Cpp *c, PTok **tok, int depth)
{
	PTok *name = *tok;
	Macro *m = cpp_find(c, name);
	if (!m || hide_has(name->hide, m->name))
		return false;
	if (depth > EXPAND_DEPTH_MAX)
		cpp_fail(c, name, true, "macro expansion nested more than %d deep", EXPAND_DEPTH_MAX);
	PTok *body, *after;
	Hide *hs;
	if (m->builtin) {
		body = builtin_token(c, m, name);
		after = name->next;
		hs = name->hide;
	} else if (!m->funclike) {
		body = subst(c, m, NULL, depth);
		after = name->next;
		hs = hide_add(c, name->hide, m->name);
	} else {
		if (!cpp_is(name->next, "("))
			return false;
		int n;
		PTok *rparen;
		Arg *args = read_args(c, m, name->next, &rparen, &n);
		if (m->nparams == 0 && n == 1 && args[0].raw->kind == PT_EOF)
			n = 0; /* f() of a macro without parameters */
		check_arg_count(c, m, n ? rparen : name, n);
		if (n < m->nparams) { /* a variadic macro called without its variable part */
			args = arena_grow(c->a, args, n, sizeof(*args));
			args[n++] = (Arg){cpp_eof(c, rparen), NULL};
		}
		body = subst(c, m, args, depth);
		after = rparen->next;
		hs = hide_add(c, hide_common(c, name->hide, rparen->hide), m->name);
	}
	PTok *last = NULL;
	for (PTok *t = body; t; t = t->next) {
		t->hide = hide_union(c, t->hide, hs);
		t->file = name->file;
		t->line = name->line;
		t->col = name->col;
		t->bol = false;
		t->lead = -1;
		last = t;
	}
	if (!last) { /* expands to nothing: the next token takes the name's place */
		if (after->kind != PT_EOF && !after->bol) {
			after->space |= name->space;
			if (name->lead >= 0)
				after->lead = name->lead;
		}
		*tok = after;
		return true;
	}
	body->space = name->space;
	body->lead = name->lead;
	last->next = after;
	*tok = body;
	return true;
}

bool cpp_expand(Cpp *c, PTok **tok)
{
	return expand_at(c, tok, 0);
}

static PTok *expand_list(Cpp *c, const PTok *raw, int depth)
{
	List in, out;
	list_init(&in);
	list_init(&out);
	list_add_all(c, &in, raw);
	in.tail->next = cpp_eof(c, raw);
	for (PTok *t = in.head.next; t->kind != PT_EOF;) {
		if (expand_at(c, &t, depth))
			continue;
		list_add(c, &out, t);
		t = t->next;
	}
	out.tail->next = cpp_eof(c, raw);
	return out.head.next;
}
