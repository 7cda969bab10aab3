/* bpftrace 0.26's for loops: `for ($kv : @map)` gives $kv = (key, value)
 * for each element ((k1, k2...), value) for a map with several keys);
 * `for ($i : a..b)` gives $i = a, a+1, ... b-1, both ends evaluated once.
 * The loop variable lives in the loop only; the body shares the probe's
 * other variables (codegen_loop.c keeps them where the loop's callback
 * reaches them). */
#include "sema_int.h"

#include <string.h>

static bool range_end_int(Sema *s, Expr *e, const char *which)
{
	if (!sema_expr(s, e))
		return false;
	if (e->type->kind == TY_NONE && !s->strict)
		return true;
	if (e->type->kind != TY_INT || type_is_ptr(e->type))
		return sema_error_late(s, e->loc, "Loop range requires an integer for the %s value",
				       which);
	return true;
}

/* the loop variable's type, or NULL when the map has none yet */
static bool iterable_type(Sema *s, Expr *it, Type **vt)
{
	*vt = NULL;
	if (it->kind == E_RANGE) {
		bool ok = range_end_int(s, it->a, "start");
		ok = (range_end_int(s, it->b, "end") || s->all) && ok;
		if (ok && it->a->type->kind == TY_INT)
			*vt = ty_int(s, 64, true);
		return ok;
	}
	if (it->kind != E_MAP)
		return sema_error(s, it->loc, "Loop expression must be a map");
	MapInfo *m = it->map = script_map(s->sc, it->name, it->loc);
	if (!sema_map_declared(s, m))
		return false;
	if (!m->val) {
		if (s->strict)
			return sema_error_late(s, it->loc, "Undefined map: %s", m->print_name);
		return true; /* a later probe may give it its type */
	}
	if (!m->key || type_is_agg(m->val))
		return sema_error(s, it->loc, "Loop expression does not support type: %s",
				  m->key ? tn(m->val) : "a map without keys");
	Type *kv[2] = {m->key, m->val};
	*vt = ty_tuple(s, kv, 2);
	it->type = *vt;
	return true;
}

bool sema_for(Sema *s, Stmt *st, bool (*body)(Sema *, const StmtList *))
{
	Expr *v = st->target;
	VarInfo *first = sema_var_find(s, v->name);
	if (first) {
		sema_error(s, v->loc, "Loop declaration shadows existing variable: $%s", v->name);
		sema_var_origin_context(s, v->loc, first);
		return false;
	}
	Type *vt;
	if (!iterable_type(s, st->expr, &vt) || !vt)
		return !vt && !s->strict; /* checked once the map has its type */
	VarInfo *var = arena_alloc(&s->sc->arena, sizeof(VarInfo));
	var->name = v->name;
	var->type = vt;
	var->assigned = true;
	sema_var_origin(var, v->loc, "This is the loop variable.");
	vec_push(&s->vars, var);
	v->var = var;
	v->type = vt;
	s->loop_depth++;
	s->for_depth++;
	bool ok = body(s, &st->body);
	s->for_depth--;
	s->loop_depth--;
	var->out_of_scope = true;
	return ok;
}
