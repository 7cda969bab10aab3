/* bpftrace 0.26's macros expanded where they are called, after the parse
 * and before sema: each call becomes a copy of the macro's body with the
 * arguments bound to its parameters.  A `$v` parameter names the caller's
 * variable, an `@m` one the caller's map, an identifier `e` stands for the
 * argument's expression wherever the body says `e`.  The variables the body
 * sets are its own: they are renamed, one name per expansion, so a caller's
 * variables never clash with them ("hygienic" macros); a map the body uses
 * must be a parameter.
 *
 * A call in a statement of its own becomes the body's statements.  A call
 * in an expression needs a body that ends in a value: it becomes a block
 * expression (E_BLOCK, 0.26's `{ stmts; value }`) of the body, so its
 * statements run where the value is taken and only then: behind a
 * short-circuit (&&, ||, ?:) that skips the call they do not run, in a
 * loop's condition they run at each test.  The tree keeps its node kinds,
 * and sema and codegen know nothing of macros. */
#include <stdio.h>
#include <string.h>

#include "macro_expand.h"
#include "parse_opts.h"

#define MACRO_DEPTH_MAX 64

typedef struct Expander {
	Program *p;
	const ParseOpts *opts;
	Error *err;
	int serial; /* expansions so far: numbers each one's variables */
	const char *stack[MACRO_DEPTH_MAX]; /* the macros being expanded */
	int depth;
} Expander;

/* One call being expanded: its macro, the arguments, the body's own
 * variables and their names in this expansion */
typedef struct Call {
	const MacroDef *m;
	Expr **args;
	char **own;  /* names the body sets, not parameters */
	int nown;
	int serial;
	Loc site; /* the call, name to ')' */
	int exp;  /* its Loc.exp: the body's copied places point at it */
} Call;

static void stmt_push(Program *p, StmtList *l, Stmt *s)
{
	l->v = arena_grow(&p->arena, l->v, l->n, sizeof(*l->v));
	l->v[l->n++] = s;
}

static int macro_param_index(const MacroDef *m, MacroParamKind kind, const char *name)
{
	for (int i = 0; i < m->nparams; i++)
		if (m->params[i].kind == kind && !strcmp(m->params[i].name, name))
			return i;
	return -1;
}

/* ---- copies ---- */

static Expr *clone_expr(Expander *x, const Call *c, const Expr *e);
static bool clone_stmts(Expander *x, const Call *c, const StmtList *in, StmtList *out);

/* a plain deep copy (an argument, which belongs to the caller) */
static Expr *copy_expr(Expander *x, const Expr *e)
{
	return clone_expr(x, NULL, e);
}

static bool clone_list(Expander *x, const Call *c, const ExprList *in, ExprList *out)
{
	out->v = in->n ? arena_alloc(&x->p->arena, sizeof(*out->v) * (size_t)in->n) : NULL;
	out->n = in->n;
	for (int i = 0; i < in->n; i++)
		if (!(out->v[i] = clone_expr(x, c, in->v[i])))
			return false;
	return true;
}

/* a body variable's name in this expansion: $$macro_name_N */
static char *own_name(Expander *x, const Call *c, const char *name)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "$%s_%s_%d", c->m->name, name, c->serial);
	return arena_strdup(&x->p->arena, buf);
}

static bool is_own(const Call *c, const char *name)
{
	for (int i = 0; i < c->nown; i++)
		if (!strcmp(c->own[i], name))
			return true;
	return false;
}

/* what a name of the body stands for in this expansion (c NULL: a copy) */
static bool bind_names(Expander *x, const Call *c, Expr *n)
{
	int i;
	if (n->kind == E_VAR && (i = macro_param_index(c->m, MP_VAR, n->name)) >= 0)
		n->name = c->args[i]->name;
	else if (n->kind == E_VAR && is_own(c, n->name))
		n->name = own_name(x, c, n->name);
	else if (n->kind == E_MAP && (i = macro_param_index(c->m, MP_MAP, n->name)) >= 0)
		n->name = c->args[i]->name;
	else if (n->kind == E_MAP)
		return error_at(x->err, n->loc,
				"Unhygienic access to map: @%s. Maps must be passed into the macro "
				"as arguments.", n->name);
	return true;
}

static Expr *clone_expr(Expander *x, const Call *c, const Expr *e)
{
	if (!e)
		return NULL;
	int i;
	if (c && e->kind == E_BUILTIN && (i = macro_param_index(c->m, MP_EXPR, e->name)) >= 0)
		return copy_expr(x, c->args[i]);
	Expr *n = arena_alloc(&x->p->arena, sizeof(*n));
	*n = *e;
	if (c)
		n->loc.exp = c->exp;
	if (c && !bind_names(x, c, n))
		return NULL;
	if ((e->a && !(n->a = clone_expr(x, c, e->a))) || (e->b && !(n->b = clone_expr(x, c, e->b))) ||
	    (e->c && !(n->c = clone_expr(x, c, e->c))) || !clone_list(x, c, &e->args, &n->args))
		return NULL;
	n->block = (StmtList){0}; /* E_BLOCK's statements: each copy its own */
	if (!clone_stmts(x, c, &e->block, &n->block))
		return NULL;
	return n;
}

static Stmt *clone_stmt(Expander *x, const Call *c, const Stmt *s)
{
	Stmt *n = arena_alloc(&x->p->arena, sizeof(*n));
	*n = *s;
	if (c)
		n->loc.exp = n->op_loc.exp = c->exp;
	n->body = (StmtList){0};
	n->els = (StmtList){0};
	if ((s->target && !(n->target = clone_expr(x, c, s->target))) ||
	    (s->expr && !(n->expr = clone_expr(x, c, s->expr))) ||
	    !clone_stmts(x, c, &s->body, &n->body) || !clone_stmts(x, c, &s->els, &n->els))
		return NULL;
	return n;
}

static bool clone_stmts(Expander *x, const Call *c, const StmtList *in, StmtList *out)
{
	for (int i = 0; i < in->n; i++) {
		Stmt *s = clone_stmt(x, c, in->v[i]);
		if (!s)
			return false;
		stmt_push(x->p, out, s);
	}
	return true;
}

/* ---- the body's own variables ---- */

static void note_own(Expander *x, Call *c, const Expr *target)
{
	if (!target || target->kind != E_VAR || macro_param_index(c->m, MP_VAR, target->name) >= 0 ||
	    is_own(c, target->name))
		return;
	c->own = arena_grow(&x->p->arena, c->own, c->nown, sizeof(*c->own));
	c->own[c->nown++] = target->name;
}

/* the variables the body assigns, declares or loops with */
static void find_own(Expander *x, Call *c, const StmtList *l)
{
	for (int i = 0; i < l->n; i++) {
		const Stmt *s = l->v[i];
		if (s->kind == S_ASSIGN || s->kind == S_LET || s->kind == S_FOR)
			note_own(x, c, s->target);
		find_own(x, c, &s->body);
		find_own(x, c, &s->els);
	}
}

/* ---- finding calls ---- */

static const MacroDef *macro_named(const Program *p, const char *name, int nargs)
{
	for (int i = 0; i < p->nmacros; i++)
		if (!strcmp(p->macros[i].name, name) && (nargs < 0 || p->macros[i].nparams == nargs))
			return &p->macros[i];
	return NULL;
}

/* The macro e calls, or NULL; an error when it names a macro with other
 * parameters and no function of the language */
static const MacroDef *macro_called(Expander *x, const Expr *e, bool *bad)
{
	if (e->kind == E_BUILTIN)
		return macro_named(x->p, e->name, 0);
	if (e->kind != E_CALL)
		return NULL;
	const MacroDef *m = macro_named(x->p, e->name, e->args.n);
	const MacroDef *other = m ? NULL : macro_named(x->p, e->name, -1);
	if (other && !(x->opts->is_function && x->opts->is_function(e->name)))
		*bad = !error_at(x->err, e->loc,
				 "Call to macro has wrong number arguments. Expected: %d but got %d",
				 other->nparams, e->args.n);
	return m;
}

static bool check_recursion(Expander *x, const Expr *call, const char *name)
{
	for (int i = 0; i < x->depth; i++) {
		if (strcmp(x->stack[i], name))
			continue;
		char chain[400] = "";
		for (int j = i; j < x->depth; j++)
			snprintf(chain + strlen(chain), sizeof(chain) - strlen(chain), "%s > ",
				 x->stack[j]);
		return error_at(x->err, call->loc,
				"Recursive macro call detected. Call chain: %s%s", chain, name);
	}
	if (x->depth == MACRO_DEPTH_MAX)
		return error_at(x->err, call->loc, "macro calls nested too deep");
	return true;
}

static const char *const kind_words[] = {"a variable", "a map", "an expression"};

/* each argument fits its parameter: a variable for $v, a map for @m */
static bool check_args(Expander *x, const MacroDef *m, const Expr *call)
{
	for (int i = 0; i < m->nparams; i++) {
		const MacroParam *p = &m->params[i];
		const Expr *a = call->args.v[i];
		int got = a->kind == E_VAR ? 0 : a->kind == E_MAP && !a->args.n ? 1 : 2;
		if (p->kind != MP_EXPR && got != (int)p->kind)
			return error_at(x->err, call->loc,
					"Mismatched arg to macro call. Macro expects %s for arg %s%s but got %s.",
					kind_words[p->kind], p->kind == MP_VAR ? "$" : "@", p->name,
					kind_words[got]);
	}
	return true;
}

/* ---- expansion ---- */

static bool expand_stmts(Expander *x, StmtList *l);
static bool expand_expr(Expander *x, Expr **ep);

/* The body of m for the call (its arguments expanded already), itself
 * expanded, into out */
static bool instantiate(Expander *x, const MacroDef *m, const Expr *call, StmtList *out)
{
	if (!check_recursion(x, call, m->name) || (call->kind == E_CALL && !check_args(x, m, call)))
		return false;
	Call c = {.m = m, .args = call->args.v, .serial = ++x->serial, .site = call->loc};
	if (call->kind == E_CALL)
		c.site = loc_call_span(&x->p->src, call->loc);
	c.exp = source_files_add_exp(program_files(x->p), c.site);
	find_own(x, &c, &m->body);
	if (!clone_stmts(x, &c, &m->body, out))
		return false;
	x->stack[x->depth++] = m->name;
	bool ok = expand_stmts(x, out);
	x->depth--;
	return ok;
}

static bool expand_args(Expander *x, ExprList *args)
{
	for (int i = 0; i < args->n; i++)
		if (!expand_expr(x, &args->v[i]))
			return false;
	return true;
}

/* A call in an expression: a block of the body's statements whose value
 * is the body's last expression (the value alone when it has no
 * statements) in the call's place */
static bool expand_value(Expander *x, const MacroDef *m, Expr **ep)
{
	StmtList body = {0};
	Expr *call = *ep;
	if (!instantiate(x, m, call, &body))
		return false;
	if (!m->has_value || !body.n || body.v[body.n - 1]->kind != S_EXPR)
		return error_at(x->err, call->loc,
				"Macro '%s' expanded to a block instead of a block expression. Try "
				"removing the semicolon from the end of the last statement in the "
				"macro body.", m->name);
	Expr *value = body.v[--body.n]->expr;
	if (!body.n) {
		*ep = value;
		return true;
	}
	Expr *blk = arena_alloc(&x->p->arena, sizeof(*blk));
	*blk = (Expr){.kind = E_BLOCK, .loc = call->loc, .a = value,
		      .block = body};
	*ep = blk;
	return true;
}

static bool expand_expr(Expander *x, Expr **ep)
{
	Expr *e = *ep;
	if (!e)
		return true;
	if (!expand_expr(x, &e->a) || !expand_expr(x, &e->b) || !expand_expr(x, &e->c) ||
	    !expand_args(x, &e->args) || !expand_stmts(x, &e->block))
		return false;
	bool bad = false;
	const MacroDef *m = macro_called(x, e, &bad);
	if (bad)
		return false;
	return !m || expand_value(x, m, ep);
}

/* one statement into out: itself, its calls expanded (a call of its own:
 * the body's statements) */
static bool expand_stmt(Expander *x, Stmt *s, StmtList *out)
{
	bool bad = false;
	const MacroDef *m = s->kind == S_EXPR ? macro_called(x, s->expr, &bad) : NULL;
	if (bad)
		return false;
	if (m)
		return expand_args(x, &s->expr->args) && instantiate(x, m, s->expr, out);
	if (!expand_expr(x, &s->expr) || !expand_expr(x, &s->target) ||
	    !expand_stmts(x, &s->body) || !expand_stmts(x, &s->els))
		return false;
	stmt_push(x->p, out, s);
	return true;
}

static bool expand_stmts(Expander *x, StmtList *l)
{
	StmtList out = {0};
	for (int i = 0; i < l->n; i++)
		if (!expand_stmt(x, l->v[i], &out))
			return false;
	*l = out;
	return true;
}

/* ---- definitions ---- */

static bool check_params(Error *err, const MacroDef *m)
{
	static const char *const what[] = {"Variable", "Map", "Identifier"};
	for (int i = 0; i < m->nparams; i++)
		for (int j = 0; j < i; j++)
			if (m->params[j].kind == m->params[i].kind &&
			    !strcmp(m->params[j].name, m->params[i].name))
				return error_at(err, m->params[i].loc,
						"%s for macro argument has already been used: %s%s",
						what[m->params[i].kind],
						m->params[i].kind == MP_VAR   ? "$"
						: m->params[i].kind == MP_MAP ? "@"
									      : "",
						m->params[i].name);
	return true;
}

static bool check_definitions(const Program *p, Error *err)
{
	for (int i = 0; i < p->nmacros; i++) {
		const MacroDef *m = &p->macros[i];
		for (int j = 0; j < i; j++)
			if (!strcmp(p->macros[j].name, m->name) &&
			    p->macros[j].nparams == m->nparams)
				return error_at(err, m->loc, "Redifinition of macro: %s", m->name);
		if (!check_params(err, m))
			return false;
	}
	return true;
}

bool macro_expand(Program *p, const ParseOpts *opts, Error *err)
{
	if (!p->nmacros)
		return true;
	if (!check_definitions(p, err))
		return false;
	Expander x = {.p = p, .opts = opts, .err = err};
	for (int i = 0; i < p->nprobes; i++) {
		Probe *pr = p->probes[i];
		if (!expand_expr(&x, &pr->pred) || !expand_stmts(&x, &pr->body))
			return false;
	}
	return true;
}
