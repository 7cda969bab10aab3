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

/* `let $x;`: $x is zeroed there once its assignments give it a type (before
 * them, it reads as zero as every variable does) */
bool sema_let(Sema *s, Stmt *st)
{
	VarInfo *v = sema_var_find(s, st->target->name);
	st->target->var = v && v->type ? v : NULL;
	return true;
}

bool sema_var(Sema *s, Expr *e)
{
	VarInfo *v = sema_var_find(s, e->name);
	const SemaHooks *h = sema_hooks(s);
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
