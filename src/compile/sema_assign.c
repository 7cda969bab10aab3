/* Assignments to variables and maps (`$x = v`, `@m[k] = v`, `x op= v`),
 * and what ++, -- and compound assignments may change (an integer place).
 * Stores into members, elements and pointees are sema_store.c's. */
#include "sema_int.h"

bool sema_lvalue_int(Sema *s, Expr *t, const char *what)
{
	if (t->kind == E_VAR)
		return sema_need_int(s, t, what);
	bool place = t->kind == E_FIELD || t->kind == E_INDEX || (t->kind == E_UNOP && t->op == OP_DEREF);
	if (place && sema_hooks(s)->store_places) { /* bpftrace: maps and variables only */
		if (!sema_store_target(s, t, what))
			return false;
		if (t->type->kind != TY_INT && (t->type->kind != TY_NONE || s->strict))
			return sema_error(s, t->loc, "%s needs an integer, not %s", what, tn(t->type));
		return true;
	}
	if (t->kind != E_MAP)
		return sema_error(s, t->loc, "%s needs a map or a variable", what);
	if (!sema_map(s, t))
		return false;
	if (t->map->val && t->map->val->kind != TY_INT)
		return sema_error(s, t->loc, "%s needs an integer map, but %s holds %s", what,
				  t->map->print_name, tn(t->map->val));
	if (!t->map->val && !sema_map_value(s, t, ty_int(s, 64, true), t->loc))
		return false;
	t->type = t->map->val;
	return true;
}

/* The type a variable or map has so far, or NULL */
static const Type *held_type(Sema *s, const Expr *t)
{
	const VarInfo *v = t->kind == E_VAR ? sema_var_find(s, t->name) : NULL;
	if (t->kind == E_MAP)
		return script_map(s->sc, t->name, t->loc)->val;
	return v ? v->type : NULL;
}

/* ++ and -- of a variable or map: the dialect's checks of what it holds */
bool sema_incdec_held(Sema *s, Expr *e)
{
	const Type *t = held_type(s, e->a);
	const SemaHooks *h = sema_hooks(s);
	return !h->incdec || !t || h->incdec(s, e, t);
}

/* `x op= v` of a variable or map: the dialect's checks of what it holds */
static bool compound_held(Sema *s, Stmt *st)
{
	Expr *t = st->target;
	const Type *cur = held_type(s, t);
	const SemaHooks *h = sema_hooks(s);
	if (!h->compound || !cur || (t->kind != E_VAR && t->kind != E_MAP))
		return true;
	return h->compound(s, st, cur);
}

/* the value of `$var = v`: a call there may be one only a variable takes
 * (skboutput) */
static bool sema_var_value(Sema *s, Expr *v)
{
	sema_args_value(s, v);
	if (v->kind != E_CALL)
		return sema_expr(s, v);
	if (!sema_call(s, v, CALL_VAR))
		return false;
	sema_addrspace(s, v);
	return true;
}

/* `$x = v` where v has an error: later uses of $x say nothing more (bpftrace
 * has no error for them either) */
static void var_failed(Sema *s, VarInfo *var, const char *name, const Expr *v)
{
	if (!s->all || var)
		return;
	var = arena_alloc(&s->sc->arena, sizeof(VarInfo));
	var->name = (char *)name;
	var->failed = true;
	var->none = v->none;
	/* a call that knows its type despite the error (str(comm)) gives it */
	if (v->type && sema_storable(v->type))
		var->type = sema_value_storage_type(s, v->type);
	vec_push(&s->vars, var);
}

bool sema_assign_var(Sema *s, Stmt *st)
{
	Expr *t = st->target, *v = st->expr;
	if (st->let_decl && sema_let_shadows(s, st))
		return false;
	VarInfo *var = sema_var_find(s, t->name);
	if (st->op != OP_NONE) {
		if (!compound_held(s, st) || !sema_need_int(s, v, "the right side of a compound assignment"))
			return false;
		return sema_lvalue_int(s, t, "a compound assignment");
	}
	if (!sema_var_value(s, v)) {
		if (v->none && s->all && (!var || var->type) && sema_hooks(s)->assign_none)
			sema_hooks(s)->assign_none(s, st, var ? var->type : NULL);
		var_failed(s, var, t->name, v);
		return false;
	}
	if (v->type->kind == TY_NONE && !s->strict)
		return true;
	if (sema_hooks(s)->assign_own && sema_hooks(s)->assign_own(s, st))
		return true;
	if (!sema_storable(v->type))
		return sema_error(s, v->loc, "a value of type %s cannot be stored in a variable", tn(v->type));
	if (!var) {
		var = arena_alloc(&s->sc->arena, sizeof(VarInfo));
		var->name = t->name;
		if (!sema_declared(s, t->name, &var->type))
			return false;
		sema_var_origin(var, st->loc, st->let_decl ? "This is the initial declaration."
							   : "This is the initial assignment.");
		vec_push(&s->vars, var);
	}
	bool grew = false;
	if (!sema_merge_type(s, &var->type, sema_var_storage_type(s, v->type), &grew))
		return sema_hooks(s)->var_mismatch(s, st, var->type, v->type);
	t->var = var;
	t->type = var->type;
	sema_addrspace_assigned(t, v);
	return true;
}

/* `@m[k] = v`: its keys and value; a value with an error leaves the map
 * without a type, and later reads say nothing more */
static bool sema_exprs_key(Sema *s, Expr *v, Expr *t)
{
	sema_args_value(s, v);
	if (s->all) { /* bpftrace's order: the keys' errors, then the value's */
		bool keys = sema_map_key(s, t);
		bool ok = sema_expr(s, v);
		t->map->failed |= !ok;
		t->map->none |= !ok && v->none;
		return keys && ok;
	}
	return sema_expr(s, v) && sema_map_key(s, t);
}

bool sema_assign_map(Sema *s, Stmt *st)
{
	Expr *t = st->target, *v = st->expr;
	t->map = script_map(s->sc, t->name, t->loc);
	if (v->kind == E_CALL) {
		const FuncDef *f = func_find(v->name);
		if (f && f->kind == FK_AGG) {
			if (st->op != OP_NONE)
				return sema_error(s, st->loc, "%s() cannot be used with a compound "
						  "assignment", f->name);
			bool ok = sema_call(s, v, CALL_AGG);
			if (!ok)
				t->map->failed |= s->all;
			if (!(ok || s->all) || !sema_map_key(s, t) || !ok)
				return false;
			return sema_map_value(s, t, v->type, t->loc);
		}
	}
	if (st->op != OP_NONE) {
		t->map = script_map(s->sc, t->name, t->loc);
		if (!compound_held(s, st) || !sema_need_int(s, v, "the right side of a compound assignment"))
			return false;
		return sema_lvalue_int(s, t, "a compound assignment");
	}
	bool fresh = !t->map->failed;
	if (!sema_exprs_key(s, v, t)) {
		if (fresh && v->none && s->all && sema_hooks(s)->assign_none)
			sema_hooks(s)->assign_none(s, st, t->map->val);
		return false;
	}
	if (!sema_map_declared(s, t->map))
		return false;
	if (v->type->kind == TY_NONE && !s->strict)
		return true;
	if (type_is_ptr(v->type) && v->type->ctx) /* bpftrace's words and place (the '=') */
		return sema_error(s, st->op_loc, "context cannot be assigned to a map");
	if (!sema_storable(v->type))
		return sema_error(s, v->loc, "a value of type %s cannot be stored in a map", tn(v->type));
	if (!sema_map_value(s, t, sema_value_storage_type(s, v->type),
			    sema_hooks(s)->map_error_at_value ? v->loc : t->loc))
		return false;
	t->type = t->map->val;
	sema_addrspace_assigned(t, v);
	return true;
}
