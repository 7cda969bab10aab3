/* $variables: the probe's list of them, a declared variable's type (the
 * dialect's declarations), and reading one. */
#include "sema_int.h"

#include <string.h>

void sema_reset_vars(Sema *s)
{
	s->vars.n = 0;
}

VarInfo *sema_var_find(Sema *s, const char *name)
{
	for (int i = 0; i < s->vars.n; i++)
		if (!s->vars.v[i]->out_of_scope && !strcmp(s->vars.v[i]->name, name))
			return s->vars.v[i];
	return NULL;
}

/* *t = the declared type of variable `name`, NULL when it has none; false
 * when the declaration's type is unknown (error set) */
bool sema_declared(Sema *s, const char *name, Type **t)
{
	*t = NULL;
	return !sema_hooks(s)->declared || sema_hooks(s)->declared(s, name, t);
}

void sema_var_origin(VarInfo *v, Loc loc, const char *what)
{
	v->origin = loc;
	v->origin_what = what;
}

/* after an error at `at` about redeclaring v: where v came from, as
 * bpftrace 0.26 adds it (its own message and caret, after the error) */
void sema_var_origin_context(Sema *s, Loc at, const VarInfo *v)
{
	if (v->origin_what)
		sema_context(s, at, v->origin, v->origin_what);
}

/* SemaHooks.block_scoping: `let $x` of a variable already seen here or
 * in an enclosing block is an error (bpftrace 0.26's words) */
bool sema_let_shadows(Sema *s, const Stmt *st)
{
	VarInfo *first = sema_var_find(s, st->target->name);
	if (!sema_hooks(s)->block_scoping || !first)
		return false;
	sema_error(s, st->loc, "Variable $%s was already declared. Variable shadowing is not allowed.",
		   st->target->name);
	sema_var_origin_context(s, st->loc, first);
	return true;
}

/* `let $x;`: $x is zeroed there once its assignments give it a type (before
 * them, it reads as zero as every variable does).  With block scoping it
 * is declared here: assignments in inner blocks set this one. */
bool sema_let(Sema *s, Stmt *st)
{
	if (sema_let_shadows(s, st))
		return false;
	VarInfo *v = sema_var_find(s, st->target->name);
	if (!v && sema_hooks(s)->block_scoping) {
		v = arena_alloc(&s->sc->arena, sizeof(VarInfo));
		v->name = st->target->name;
		v->declared = true;
		sema_var_origin(v, st->loc, "This is the initial declaration.");
		vec_push(&s->vars, v);
		st->target->var = v; /* zeroed with the type its uses give it */
		return true;
	}
	st->target->var = v && v->type ? v : NULL;
	return true;
}

bool sema_var(Sema *s, Expr *e)
{
	VarInfo *v = sema_var_find(s, e->name);
	const SemaHooks *h = sema_hooks(s);
	if (v && v->declared && !v->type) /* `let $x;` read before it is set: 0 */
		v->type = ty_int(s, 64, true);
	e->none = (!v || (!v->type && !v->failed) || v->none) && h->none_values;
	if (v && !v->type && v->failed)
		return false; /* its assignment's error is reported */
	if ((!v || !v->type) && h->var_undefined)
		return h->var_undefined(s, e);
	if (!v || !v->type)
		return sema_error(s, e->loc, "variable $%s is used before it is assigned", e->name);
	e->var = v;
	e->type = v->type;
	return true;
}
