/* bpftrace 0.26's getopt(NAME [, DEFAULT [, DESCRIPTION]]): a named
 * parameter of the command line (`-- --NAME=VALUE`, `--NAME`), known when
 * the program is compiled.  The call is folded into the literal the value
 * spells, typed as its default is (a bool without one), so the code is a
 * literal's. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../compile/sema_int.h"

/* the value given for name, "" for a bare --NAME, NULL when not given;
 * a later one wins, as a later option does */
static const char *named_value(const Options *o, const char *name)
{
	const char *v = NULL;
	size_t n = strlen(name);
	for (int i = 0; i < o->nnamed; i++) {
		const char *a = o->named[i];
		if (!strncmp(a, name, n) && (a[n] == '=' || !a[n]))
			v = a[n] == '=' ? a + n + 1 : "";
	}
	return v;
}

typedef enum { OPT_BOOL, OPT_INT, OPT_STR } OptKind;

static bool default_kind(Sema *s, Expr *c, OptKind *k)
{
	if (c->args.n < 2) {
		*k = OPT_BOOL;
		return true;
	}
	Expr *d = c->args.v[1];
	bool neg = d->kind == E_UNOP && d->op == OP_NEG && d->a->kind == E_INT;
	if (d->kind == E_INT && d->lit == LIT_BOOL)
		*k = OPT_BOOL;
	else if (d->kind == E_INT || neg)
		*k = OPT_INT;
	else if (d->kind == E_STR)
		*k = OPT_STR;
	else
		return sema_error(s, d->loc,
				  "getopt() default value must be a bool, integer or string literal");
	return true;
}

static void fold_bool(Expr *c, bool v)
{
	c->kind = E_INT;
	c->lit = LIT_BOOL;
	c->ival = v;
}

static bool fold_int(Sema *s, Expr *c, const char *name, const char *v)
{
	char *end;
	errno = 0;
	bool neg = *v == '-';
	uint64_t n = neg ? (uint64_t)strtoll(v, &end, 0) : strtoull(v, &end, 0);
	if (!*v || *end || errno || (!neg && strchr(v, '-')))
		return sema_error(s, c->loc, "named parameter '%s' expects an integer, got '%s'", name, v);
	Expr *lit = expr_new(s->sc->ast, E_INT, c->loc);
	lit->ival = neg ? -n : n;
	c->args.n = 0;
	if (!neg) {
		*c = *lit;
		return true;
	}
	c->kind = E_UNOP; /* as the parser reads "-10" */
	c->op = OP_NEG;
	c->a = lit;
	return true;
}

static bool fold_value(Sema *s, Expr *c, OptKind k, const char *name, const char *v)
{
	switch (k) {
	case OPT_BOOL:
		if (!*v || !strcasecmp(v, "true") || !strcmp(v, "1"))
			fold_bool(c, true);
		else if (!strcasecmp(v, "false") || !strcmp(v, "0"))
			fold_bool(c, false);
		else
			return sema_error(s, c->loc,
					  "named parameter '%s' expects true, false, 1 or 0, got '%s'",
					  name, v);
		return true;
	case OPT_INT:
		return fold_int(s, c, name, v);
	case OPT_STR:
		c->kind = E_STR;
		c->slen = strlen(v);
		c->sval = arena_strndup(&s->sc->arena, v, c->slen);
		c->args.n = 0;
		return true;
	}
	return false;
}

static bool check_getopt(Sema *s, Expr *c)
{
	OptKind k = OPT_BOOL;
	if (!sema_arg_literal_str(s, c, 0) || (c->args.n > 2 && !sema_arg_literal_str(s, c, 2)) ||
	    !default_kind(s, c, &k))
		return false;
	const char *name = c->args.v[0]->sval;
	const char *v = named_value(&s->sc->opt, name);
	if (!v) { /* not given: the default, or false */
		if (c->args.n < 2) {
			fold_bool(c, false);
		} else {
			Expr *d = c->args.v[1];
			*c = *d;
		}
	} else if (!fold_value(s, c, k, name, v)) {
		return false;
	}
	return sema_expr(s, c);
}

static const FuncDef getopt_funcs[] = {
	{"getopt", FK_EXPR, 1, 3, check_getopt, .sets = FSET_BT_STDLIB},
};
BUILTINS(getopt_funcs)
