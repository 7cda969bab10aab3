/* perf's string filters: globs joined by '&' and '|' (left to right),
 * negated by '!', grouped by parentheses; "!_* & !*@plt". */
#include <fnmatch.h>
#include <string.h>

#include "../util/util.h"
#include "probe.h"

struct StrFilter {
	char op; /* 0: glob, '!', '&', '|' */
	char *glob;
	StrFilter *l, *r;
};

typedef struct Lex {
	const char *p;
	const char *err;
} Lex;

static StrFilter *node(char op, StrFilter *l, StrFilter *r)
{
	StrFilter *n = xcalloc(1, sizeof(*n));
	n->op = op;
	n->l = l;
	n->r = r;
	return n;
}

static void skip_spaces(Lex *x)
{
	while (*x->p == ' ' || *x->p == '\t')
		x->p++;
}

static StrFilter *parse_filter_expr(Lex *x);

static StrFilter *parse_term(Lex *x)
{
	skip_spaces(x);
	if (*x->p == '!') {
		x->p++;
		StrFilter *t = parse_term(x);
		return t ? node('!', t, NULL) : NULL;
	}
	if (*x->p == '(') {
		x->p++;
		StrFilter *e = parse_filter_expr(x);
		skip_spaces(x);
		if (!e || *x->p != ')') {
			x->err = x->p;
			return NULL;
		}
		x->p++;
		return e;
	}
	const char *s = x->p;
	while (*x->p && !strchr("!&|() \t", *x->p))
		x->p++;
	if (x->p == s) {
		x->err = x->p;
		return NULL;
	}
	StrFilter *g = node(0, NULL, NULL);
	g->glob = xstrndup(s, (size_t)(x->p - s));
	return g;
}

static StrFilter *parse_filter_expr(Lex *x)
{
	StrFilter *l = parse_term(x);
	while (l) {
		skip_spaces(x);
		if (*x->p != '&' && *x->p != '|')
			break;
		char op = *x->p++;
		StrFilter *r = parse_term(x);
		if (!r)
			return NULL;
		l = node(op, l, r);
	}
	return l;
}

StrFilter *strfilter_or(StrFilter *f, const char *expr, const char **err)
{
	Lex x = {expr, NULL};
	StrFilter *e = parse_filter_expr(&x);
	skip_spaces(&x);
	if (!e || *x.p) {
		*err = x.err ? x.err : x.p;
		return NULL;
	}
	return f ? node('|', f, e) : e;
}

bool strfilter_match(const StrFilter *f, const char *s)
{
	if (!f)
		return false;
	switch (f->op) {
	case '!': return !strfilter_match(f->l, s);
	case '&': return strfilter_match(f->l, s) && strfilter_match(f->r, s);
	case '|': return strfilter_match(f->l, s) || strfilter_match(f->r, s);
	default: return fnmatch(f->glob, s, 0) == 0;
	}
}
