/* @maps in expressions: a use's keys and value against the map's other
 * uses, a declared map's type, and reading an element. */
#include "sema_int.h"

/* a declared global or thread-local has its type before any assignment */
bool sema_map_declared(Sema *s, MapInfo *m)
{
	Type *t;
	if (m->val)
		return true;
	if (!sema_declared(s, m->name, &t))
		return false;
	if (t) {
		m->val = t;
		s->changed = true;
	}
	return true;
}

/* the front end's words for keys unlike the map's other uses; the map is
 * marked failed, so a use that depends on this one's value (a delete
 * before it) says nothing more */
static bool key_mismatch(Sema *s, Expr *e, const SemaHooks *h)
{
	e->map->failed = true;
	return h->key_mismatch(s, e);
}

bool sema_map_key(Sema *s, Expr *e)
{
	MapInfo *m = e->map;
	Type *k = NULL;
	bool ok = true;
	for (int i = 0; i < e->args.n && (ok || s->all); i++)
		ok &= sema_expr(s, e->args.v[i]);
	if (!ok)
		return false;
	for (int i = 0; i < e->args.n; i++) {
		Expr *a = e->args.v[i];
		if (a->type->kind == TY_STRERROR || a->type->kind == TY_CGROUP_PATH)
			return sema_error(s, a->loc, "invalid mapkey argument type: %s() text cannot be "
					  "a map key", tn(a->type));
		if (a->type->ctx) /* bpftrace's words; the key is copied from the stack */
			return sema_error(s, e->loc, "context cannot be used as a map key");
		if (!sema_storable(a->type))
			return sema_error(s, a->loc, "a value of type %s cannot be a map key", tn(a->type));
		if ((a->type->kind == TY_RECORD || a->type->kind == TY_ARRAY) && a->type->size > 512)
			return sema_error(s, a->loc, "%s is %d bytes: too large for a map key (512 at "
					  "most); use one of its fields", tn(a->type), a->type->size);
	}
	if (e->args.n == 1) {
		k = sema_key_storage_type(s, e->args.v[0]->type);
	} else if (e->args.n > 1) {
		Type *el[e->args.n];
		for (int i = 0; i < e->args.n; i++)
			el[i] = sema_key_storage_type(s, e->args.v[i]->type);
		k = ty_tuple(s, el, e->args.n);
	}
	bool grew = false;
	/* a map without a key recorded is keyless once it holds a value */
	if (!k && !m->key)
		return true;
	const SemaHooks *h = sema_hooks(s);
	if ((!k || (!m->key && m->val)) && h->key_mismatch)
		return key_mismatch(s, e, h);
	if (!k || (!m->key && m->val))
		return sema_error_late(s, e->loc, "map %s is used both with and without keys",
				       m->print_name);
	Type *before = m->key;
	if (!sema_merge_type(s, &m->key, k, &grew)) {
		m->key = before;
		if (h->key_mismatch)
			return key_mismatch(s, e, h);
		return sema_error_late(s, e->loc, "map %s is indexed by %s here but by %s elsewhere",
				       m->print_name, tn(k), tn(m->key));
	}
	s->changed |= grew;
	return true;
}

bool sema_map_value(Sema *s, Expr *map, Type *t, Loc loc)
{
	MapInfo *m = map->map;
	bool grew = false;
	const SemaHooks *h = sema_hooks(s);
	if (m->val && h->map_value_check && !h->map_value_check(s, m->val, t, loc))
		return false;
	if (m->val && m->val->kind == TY_LHIST && t->kind == TY_LHIST && !sema_merge_type(s, &m->val, t, &grew))
		return sema_error(s, loc, "map %s is lhist(min %lld, max %lld, step %lld) here but "
				  "lhist(min %lld, max %lld, step %lld) elsewhere", m->print_name,
				  (long long)t->lh_min, (long long)t->lh_max, (long long)t->lh_step,
				  (long long)m->val->lh_min, (long long)m->val->lh_max,
				  (long long)m->val->lh_step);
	if (!sema_merge_type(s, &m->val, t, &grew))
		return h->map_mismatch(s, m, t, loc);
	m->percpu = type_is_agg(m->val);
	s->changed |= grew;
	return true;
}

bool sema_map(Sema *s, Expr *e)
{
	e->map = script_map(s->sc, e->name, e->loc);
	if (!sema_map_key(s, e) || !sema_map_declared(s, e->map)) {
		e->none = !e->map->val && (!e->map->failed || e->map->none);
		return false;
	}
	Type *v = e->map->val;
	if (!v) {
		e->type = ty_simple(s, TY_NONE, 0);
		e->none = !e->map->failed || e->map->none;
		if (s->strict && e->map->failed)
			return false; /* its assignment's error is reported */
		if (s->strict)
			return sema_error_late(s, e->loc, "Undefined map: %s\nhint: it is read but never "
					       "assigned a value", e->map->print_name);
		return true;
	}
	/* an aggregation is spread over CPUs: read as one number where the
	 * dialect does (its CPUs' slots combined: codegen_aggread.c), else
	 * only user space sees its value */
	if (type_agg_scalar(v) && sema_hooks(s)->agg_values) {
		e->type = ty_int(s, 64, v->kind != TY_COUNT && v->is_signed);
		return true;
	}
	if (type_is_agg(v))
		return sema_error_late(s, e->loc, "%s holds %s, which can only be printed (print(%s))",
				  e->map->print_name, tn(v), e->map->print_name);
	e->type = v;
	return true;
}
