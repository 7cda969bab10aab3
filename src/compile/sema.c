/* Semantic analysis of statements and expressions.  Functions and builtins
 * live in their own tables (sema_call.c, sema_builtin.c). */
#include "sema_hooks.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool same_error(const Error *a, const Error *b)
{
	return a->loc.line == b->loc.line && a->loc.col == b->loc.col && !strcmp(a->msg, b->msg);
}

/* The first error, or with s->all one more at the end of the list (once:
 * the members of a wildcard check the same body) */
static void sema_record(Sema *s, Loc loc, int tier, const char *fmt, va_list ap)
{
	Error *e = s->err;
	if (!e->set || !s->all) {
		bool first = !e->set;
		error_vat(e, loc, fmt, ap);
		if (first)
			e->tier = (unsigned char)tier;
		return;
	}
	Error n = {.tier = (unsigned char)tier};
	error_vat(&n, loc, fmt, ap);
	Error *last = e;
	for (Error *x = e; x; x = x->next) {
		if (same_error(x, &n))
			return;
		last = x;
	}
	last->next = arena_alloc(&s->sc->ast->arena, sizeof(Error));
	*last->next = n;
}

/* sema_error and its kin: the same but for the tier (sema.h) */
#define SEMA_ERROR_AT_TIER(name, tier)                              \
	bool name(Sema *s, Loc loc, const char *fmt, ...)           \
	{                                                           \
		va_list ap;                                         \
		va_start(ap, fmt);                                  \
		sema_record(s, loc, tier, fmt, ap);                 \
		va_end(ap);                                         \
		return false;                                       \
	}
SEMA_ERROR_AT_TIER(sema_error, ERR_TIER_FIRST)
SEMA_ERROR_AT_TIER(sema_error_late, ERR_TIER_FINAL)
SEMA_ERROR_AT_TIER(sema_error_pre, ERR_TIER_PRE)

bool sema_exprs2(Sema *s, Expr *a, Expr *b)
{
	bool ok = sema_expr(s, a);
	if (!ok && !s->all)
		return false;
	return sema_expr(s, b) && ok;
}

void sema_warn(Sema *s, Loc loc, const char *fmt, ...)
{
	if (!s->warn)
		return;
	Error w = {0};
	va_list ap;
	va_start(ap, fmt);
	error_vat(&w, loc, fmt, ap);
	va_end(ap);
	vec_push(&s->sc->warnings, w);
}

const char *tn(const Type *t)
{
	static char buf[4][128];
	static int i;
	i = (i + 1) % 4;
	return t ? type_name(t, buf[i], sizeof(buf[i])) : "nothing";
}

void sema_reset_vars(Sema *s)
{
	s->vars.n = 0;
}

VarInfo *sema_var_find(Sema *s, const char *name)
{
	for (int i = 0; i < s->vars.n; i++)
		if (!strcmp(s->vars.v[i]->name, name))
			return s->vars.v[i];
	return NULL;
}

/* What a value becomes when stored in a map, a variable or a tuple:
 * integers widen to 64 bits. */
Type *sema_storage_type(Sema *s, Type *t)
{
	if (t->kind == TY_INT && t->bits != 64)
		return ty_int(s, 64, t->is_signed);
	if (t->kind != TY_TUPLE)
		return t;
	Type *el[t->nelem];
	bool same = true;
	for (int i = 0; i < t->nelem; i++) {
		el[i] = sema_storage_type(s, t->elem[i]);
		same &= el[i] == t->elem[i];
	}
	if (same)
		return t;
	Type *w = ty_tuple(s, el, t->nelem);
	w->elem_as = t->elem_as;
	w->c_size = t->c_size; /* sizeof keeps the elements' own widths */
	w->c_align = t->c_align;
	return w;
}

static bool storable(const Type *t)
{
	return t && t->kind != TY_NONE && t->kind != TY_CTX && !type_is_agg(t);
}

/* Merge `t` into the type already recorded in *slot: the same kind is
 * required; strings take the larger size.  Sets *grew when *slot changes. */
static bool merge_type(Sema *s, Type **slot, Type *t, bool *grew)
{
	Type *o = *slot;
	if (!o) {
		*slot = t;
		*grew = true;
		return true;
	}
	if (o->kind != t->kind)
		return false;
	if (o->kind == TY_STR && t->size > o->size) {
		*slot = t;
		*grew = true;
	}
	if (o->kind == TY_LHIST &&
	    (o->lh_min != t->lh_min || o->lh_max != t->lh_max || o->lh_step != t->lh_step))
		return false;
	if (o->kind != TY_TUPLE)
		return true;
	if (o->nelem != t->nelem)
		return false;
	Type *el[o->nelem];
	bool changed = false;
	for (int i = 0; i < o->nelem; i++) {
		el[i] = o->elem[i];
		if (!merge_type(s, &el[i], t->elem[i], &changed))
			return false;
	}
	if (changed) {
		*slot = ty_tuple(s, el, o->nelem);
		*grew = true;
	}
	return true;
}

/* A key element as stored: bpftrace widens integers to 64 bits; D keeps
 * their width (still in an 8-byte slot), which dtrace prints keys by
 * (" %8d" for an int, " %16lld" for a long long). */
static Type *key_storage_type(Sema *s, Type *t)
{
	if (sema_hooks(s)->ints_keep_width && t->kind == TY_INT && !t->pointee && t->bits &&
	    t->bits != 64)
		return ty_int(s, t->bits, t->is_signed);
	return sema_storage_type(s, t);
}

/* A variable's or array element's value as stored: in D an integer keeps
 * the width and sign of the variable's type (its declaration's or its first
 * assignment's: `x = 3` makes an int), stored sign- or zero-extended in its
 * 8-byte slot; bpftrace widens it to 64 bits. */
Type *sema_value_storage_type(Sema *s, Type *t)
{
	return key_storage_type(s, t);
}

/* A $variable's value as stored: as value_storage_type, but in bpftrace's
 * dialect too an integer keeps the width and sign of its first assignment,
 * as bpftrace 0.17's variables do (`$u = (uint32)3` is a uint32: -$u is
 * 4294967293, `$u = 1 << 40` stores 0); sign- or zero-extended in its
 * 8-byte slot. */
static Type *var_storage_type(Sema *s, Type *t)
{
	if (t->kind == TY_INT && !t->pointee && t->bits > 0 && t->bits < 64)
		return ty_int(s, t->bits, t->is_signed);
	return sema_value_storage_type(s, t);
}

/* *t = the declared type of variable `name`, NULL when it has none; false
 * when the declaration's type is unknown (error set) */
static bool declared(Sema *s, const char *name, Type **t)
{
	*t = NULL;
	return !sema_hooks(s)->declared || sema_hooks(s)->declared(s, name, t);
}

/* D's words for a value's type, in its messages (C's names; sema_call.c
 * and the D front end use them) */
const char *sema_d_type_name(const Type *t, char *buf, size_t n)
{
	static const char *const ints[2][4] = {
		{"unsigned char", "unsigned short", "unsigned int", "unsigned long"},
		{"char", "short", "int", "long"},
	};
	if (t->kind == TY_STR)
		return "string";
	if (t->kind == TY_INT && t->pointee) {
		char pb[128];
		snprintf(buf, n, "%s *", t->pointee->kind == TY_INT || t->pointee->kind == TY_STR
					  ? sema_d_type_name(t->pointee, pb, sizeof(pb)) : tn(t->pointee));
		return buf;
	}
	if (t->kind == TY_INT)
		return ints[t->is_signed][t->bits <= 8 ? 0 : t->bits <= 16 ? 1 : t->bits <= 32 ? 2 : 3];
	if (t->dsym) /* sym() and the others: DTrace's types of their values */
		return t->kind == TY_USYM ? "_usymaddr" : "_symaddr";
	return type_name(t, buf, n);
}

/* a declared global or thread-local has its type before any assignment */
static bool map_declared(Sema *s, MapInfo *m)
{
	Type *t;
	if (m->val)
		return true;
	if (!declared(s, m->name, &t))
		return false;
	if (t) {
		m->val = t;
		s->changed = true;
	}
	return true;
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
		if (!storable(a->type))
			return sema_error(s, a->loc, "a value of type %s cannot be a map key", tn(a->type));
		if ((a->type->kind == TY_RECORD || a->type->kind == TY_ARRAY) && a->type->size > 512)
			return sema_error(s, a->loc, "%s is %d bytes: too large for a map key (512 at "
					  "most); use one of its fields", tn(a->type), a->type->size);
	}
	if (e->args.n == 1) {
		k = key_storage_type(s, e->args.v[0]->type);
	} else if (e->args.n > 1) {
		Type *el[e->args.n];
		for (int i = 0; i < e->args.n; i++)
			el[i] = key_storage_type(s, e->args.v[i]->type);
		k = ty_tuple(s, el, e->args.n);
	}
	bool grew = false;
	/* a map without a key recorded is keyless once it holds a value */
	if (!k && !m->key)
		return true;
	const SemaHooks *h = sema_hooks(s);
	if ((!k || (!m->key && m->val)) && h->key_mismatch)
		return h->key_mismatch(s, e);
	if (!k || (!m->key && m->val))
		return sema_error_late(s, e->loc, "map %s is used both with and without keys",
				       m->print_name);
	Type *before = m->key;
	if (!merge_type(s, &m->key, k, &grew)) {
		m->key = before;
		if (h->key_mismatch)
			return h->key_mismatch(s, e);
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
	if (m->val && m->val->kind == TY_LHIST && t->kind == TY_LHIST && !merge_type(s, &m->val, t, &grew))
		return sema_error(s, loc, "map %s is lhist(min %lld, max %lld, step %lld) here but "
				  "lhist(min %lld, max %lld, step %lld) elsewhere", m->print_name,
				  (long long)t->lh_min, (long long)t->lh_max, (long long)t->lh_step,
				  (long long)m->val->lh_min, (long long)m->val->lh_max,
				  (long long)m->val->lh_step);
	if (!merge_type(s, &m->val, t, &grew))
		return h->map_mismatch(s, m, t, loc);
	m->percpu = type_is_agg(m->val);
	s->changed |= grew;
	return true;
}

static bool sema_map(Sema *s, Expr *e)
{
	e->map = script_map(s->sc, e->name, e->loc);
	if (!sema_map_key(s, e) || !map_declared(s, e->map)) {
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
	/* an aggregation is spread over CPUs: only user space sees its value */
	if (type_is_agg(v))
		return sema_error_late(s, e->loc, "%s holds %s, which can only be printed (print(%s))",
				  e->map->print_name, tn(v), e->map->print_name);
	e->type = v;
	return true;
}

static bool sema_var(Sema *s, Expr *e)
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

static bool need_int(Sema *s, Expr *e, const char *what)
{
	if (!sema_expr(s, e))
		return false;
	if (e->type->kind == TY_NONE && !s->strict)
		return true;
	if (e->type->kind != TY_INT)
		return sema_error_late(s, e->loc, "%s must be an integer, not %s", what, tn(e->type));
	return true;
}

/* a condition: an integer, or the dialect's checks and words */
static bool need_cond(Sema *s, Expr *c, CondKind where, const char *what)
{
	const SemaHooks *h = sema_hooks(s);
	if (!h->cond)
		return need_int(s, c, what);
	return sema_expr(s, c) && h->cond(s, c, where);
}

static bool is_str_literal(const Expr *e)
{
	return e->kind == E_STR;
}

static const char *int_name(const Type *t, char *buf, size_t n)
{
	snprintf(buf, n, "%sint%d", t->is_signed ? "" : "unsigned ", t->bits);
	return buf;
}

/* bpftrace's warnings: mixing signs, and dividing signed values (division
 * is unsigned, as in bpftrace).  A literal takes the other side's sign. */
static void warn_signs(Sema *s, const Expr *e)
{
	const Type *l = e->a->type, *r = e->b->type;
	/* as bpftrace: positional parameters count as literals, and pointer
	 * arithmetic is not signed arithmetic */
	if (type_is_ptr(l) || type_is_ptr(r))
		return;
	bool lit_a = e->a->kind == E_INT || e->a->kind == E_POSPARAM;
	bool lit_b = e->b->kind == E_INT || e->b->kind == E_POSPARAM;
	bool arith = e->op >= OP_ADD && e->op <= OP_MOD;
	bool cmp = e->op >= OP_EQ && e->op <= OP_GE;
	char a[32], b[32];
	if (!lit_a && !lit_b && l->is_signed != r->is_signed && (arith || cmp))
		sema_warn(s, e->loc, "%s integers of different signs: '%s' and '%s' can lead to "
			  "undefined behavior", cmp ? "comparison of" : "arithmetic on",
			  int_name(l, a, sizeof(a)), int_name(r, b, sizeof(b)));
	if ((e->op == OP_DIV || e->op == OP_MOD) &&
	    ((!lit_a && l->is_signed) || (!lit_b && r->is_signed)))
		sema_warn(s, e->loc, "signed operands for '%s' can lead to undefined behavior (cast to "
			  "unsigned to silence warning)", op_str(e->op));
}

/* == and != of two arrays (same count of same-sized integers) or two
 * buffers: their bytes */
static bool sema_mem_equality(Sema *s, Expr *e)
{
	Type *l = e->a->type, *r = e->b->type;
	if (e->op != OP_EQ && e->op != OP_NE)
		return sema_error_late(s, e->loc, "%s can only be compared with == and !=",
				  l->kind == TY_BUF ? "buffers" : "arrays");
	if (l->kind == TY_ARRAY &&
	    (l->pointee->kind != TY_INT || r->pointee->kind != TY_INT || l->pointee->pointee ||
	     r->pointee->pointee || type_csize(l->pointee) != type_csize(r->pointee)))
		return sema_error_late(s, e->loc, "Only arrays of same sized integer support comparison "
				  "operators.");
	if (l->kind == TY_ARRAY && l->count != r->count)
		return sema_error_late(s, e->loc, "Only arrays of same size support comparison operators.");
	e->type = ty_int(s, 64, false);
	return true;
}

/* D types arithmetic as C does: each side promoted to at least int, then
 * the wider one; at equal widths unsigned wins.  (A shift has the
 * promoted type of its left side: pass it twice.) */
/* whether d_arith_type(l, r) is signed: D's / and % divide signed then */
bool sema_d_arith_signed(const Type *l, const Type *r)
{
	int lb = l->bits < 32 ? 32 : l->bits, rb = r->bits < 32 ? 32 : r->bits;
	bool ls = l->bits < 32 || l->is_signed, rs = r->bits < 32 || r->is_signed;
	return lb != rb ? (lb > rb ? ls : rs) : ls && rs;
}

/* the dialect's type of an operator's result, else t */
static Type *op_type(Sema *s, const Expr *e, Type *t)
{
	const SemaHooks *h = sema_hooks(s);
	Type *c = h->op_type ? h->op_type(s, e) : NULL;
	return c ? c : t;
}

static bool sema_binop(Sema *s, Expr *e)
{
	const SemaHooks *h = sema_hooks(s);
	if (h->binop_operands && !h->binop_operands(s, e))
		return false;
	if (!sema_exprs2(s, e->a, e->b))
		return false;
	sema_addrspace_binop(s, e);
	Type *l = e->a->type, *r = e->b->type;
	if ((l->kind == TY_NONE || r->kind == TY_NONE) && !s->strict) {
		e->type = ty_int(s, 64, true);
		return true;
	}
	if (h->binop_ptr && (type_is_ptr(l) || type_is_ptr(r)) && !h->binop_ptr(s, e))
		return false;
	if (l->kind == TY_STR && r->kind == TY_STR) {
		bool ordered = h->strings_ordered;
		if (e->op < OP_EQ || e->op > OP_GE || (!ordered && e->op != OP_EQ && e->op != OP_NE))
			return sema_error_late(s, e->loc, "The %s operator can not be used on expressions "
					       "of types %s, %s", op_str(e->op), tn(l), tn(r));
		e->type = op_type(s, e, ty_int(s, 64, false));
		(void)is_str_literal;
		return true;
	}
	if ((l->kind == TY_ARRAY && r->kind == TY_ARRAY) || (l->kind == TY_BUF && r->kind == TY_BUF))
		return sema_mem_equality(s, e);
	if ((l->kind != TY_INT || r->kind != TY_INT) && h->binop_types && !h->binop_types(s, e))
		return false;
	if (l->kind != TY_INT || r->kind != TY_INT)
		return sema_error_late(s, e->loc, "operator %s needs two integers (or two strings for == "
				       "and !=), got %s and %s", op_str(e->op), tn(l), tn(r));
	bool cmp = e->op >= OP_EQ && e->op <= OP_LOR;
	warn_signs(s, e);
	/* bpftrace's rule: signed only when both sides are signed */
	e->type = ty_int(s, 64, cmp ? false : (l->is_signed && r->is_signed));
	if (cmp)
		e->type->is_signed = false;
	e->type = op_type(s, e, e->type);
	sema_ctype_arith(s, e); /* pointer +/- integer */
	return true;
}

static bool sema_unop(Sema *s, Expr *e)
{
	if (e->op == OP_DEREF)
		return sema_ctype_deref(s, e);
	if (e->op == OP_ADDR)
		return sema_error(s, e->loc, "the address-of operator '&' is not supported");
	const SemaHooks *h = sema_hooks(s);
	if (h->unop && !(sema_expr(s, e->a) && h->unop(s, e, op_str(e->op))))
		return false;
	if (!need_int(s, e->a, "the operand"))
		return false;
	/* bpftrace: -x and ~x keep x's signedness (-$u of an unsigned is unsigned) */
	e->type = ty_int(s, 64, e->op == OP_LNOT ? false : e->a->type->is_signed);
	e->type = op_type(s, e, e->type);
	return true;
}

static bool sema_ternary(Sema *s, Expr *e)
{
	const SemaHooks *h = sema_hooks(s);
	if (h->ternary && !h->ternary(s, e))
		return false;
	bool ok = need_int(s, e->a, "a condition");
	if (!(ok || s->all) || !sema_exprs2(s, e->b, e->c) || !ok)
		return false;
	Type *l = e->b->type, *r = e->c->type;
	if (l->kind == TY_NONE || r->kind == TY_NONE) {
		e->type = l->kind == TY_NONE ? r : l;
		return true;
	}
	if (l->kind == TY_INT && r->kind == TY_INT) {
		e->type = ty_int(s, 64, l->is_signed && r->is_signed);
		return true;
	}
	if (l->kind == TY_STR && r->kind == TY_STR) {
		e->type = ty_str(s, l->size > r->size ? l->size : r->size);
		return true;
	}
	return sema_error_late(s, e->loc, "the two branches of ?: differ: %s and %s", tn(l), tn(r));
}

static bool sema_tp_field(Sema *s, Expr *e)
{
	if (e->a->kind == E_BUILTIN && e->a->aux2 == B_LOCALS)
		return sema_uprobe_local(s, e, false);
	if (s->spec->uevent)
		return sema_uevent_field(s, e);
	if (s->spec->dwarf)
		return sema_uprobe_arg(s, e);
	if (s->spec->prov->args == ARGS_DWARF) /* a line probe, FUNC+OFF */
		return sema_uprobe_local(s, e, true);
	const TpField *f = tp_format_field(&s->spec->tp, e->name);
	if (!f)
		return sema_error(s, e->loc, "Struct/union of type 'struct _tracepoint_%s_%s' does not "
				  "contain a field named '%s'", s->spec->target, s->spec->func, e->name);
	e->auxp = (void *)f;
	if (f->is_str) {
		int size = f->is_data_loc ? s->sc->opt.strlen_max : f->array_len;
		e->type = ty_str(s, size > 0 ? size : 1);
	} else if (f->is_ptr && sema_ctype_tp_field(s, f->type)) {
		e->type = sema_ctype_tp_field(s, f->type);
	} else if (f->array_len > 0 || f->size > 8 || f->size <= 0) {
		return sema_error(s, e->loc, "field '%s' of %s is an array (%s): arrays come with the "
				  "kernel types issue", e->name, s->spec->name, f->type);
	} else {
		e->type = ty_int(s, f->size * 8, f->is_ptr ? false : f->is_signed);
	}
	return true;
}

static bool sema_field(Sema *s, Expr *e)
{
	if (!sema_expr(s, e->a))
		return false;
	Type *t = e->a->type;
	/* a field bpftrace cannot find leaves the access untyped */
	if (t->kind == TY_CTX)
		return sema_tp_field(s, e) || (e->none = true, false);
	if (t->kind == TY_TUPLE) {
		char *end;
		long i = strtol(e->name, &end, 10);
		if (*end || i < 0 || i >= t->nelem)
			return sema_error_late(s, e->loc, "tuple index .%s is out of range (the tuple has %d "
					  "elements)", e->name, t->nelem);
		e->aux = (int)i;
		e->type = t->elem[i];
		return true;
	}
	if (t->kind == TY_NONE && !s->strict) {
		e->type = t;
		return true;
	}
	if (t->kind == TY_RECORD || type_is_ptr(t))
		return sema_ctype_member(s, e) || (e->none = true, false);
	return sema_error(s, e->loc, "a value of type %s has no field '%s'", tn(t), e->name);
}

static bool cast_type(const char *name, int *bits, bool *sign)
{
	static const struct {
		const char *n;
		int bits;
		bool sign;
	} casts[] = {{"int8", 8, 1},   {"int16", 16, 1},  {"int32", 32, 1}, {"int64", 64, 1},
		     {"uint8", 8, 0},  {"uint16", 16, 0}, {"uint32", 32, 0}, {"uint64", 64, 0},
		     {"int", 32, 1},   {"uint", 32, 0},   {"char", 8, 1}};
	for (size_t i = 0; i < sizeof(casts) / sizeof(casts[0]); i++)
		if (!strcmp(casts[i].n, name)) {
			*bits = casts[i].bits;
			*sign = casts[i].sign;
			return true;
		}
	return false;
}

static bool sema_cast(Sema *s, Expr *e)
{
	int bits;
	bool sign;
	bool to_int = cast_type(e->name, &bits, &sign);
	const SemaHooks *h = sema_hooks(s);
	if (h->cast && !h->cast(s, e, to_int))
		return false;
	if (!to_int)
		return sema_ctype_cast(s, e);
	if (!need_int(s, e->a, "the value of a cast"))
		return false;
	e->type = ty_int(s, bits, sign);
	return true;
}

static bool sema_tuple(Sema *s, Expr *e)
{
	Type *el[e->args.n];
	for (int i = 0; i < e->args.n; i++) {
		Expr *a = e->args.v[i];
		if (!sema_expr(s, a)) /* bpftrace too stops at a tuple's first error */
			return false;
		if (a->type->kind == TY_NONE && !s->strict) {
			e->type = a->type;
			return true;
		}
		if (!storable(a->type))
			return sema_error(s, a->loc, "a value of type %s cannot be part of a tuple", tn(a->type));
		el[i] = a->type;
	}
	/* laid out at the elements' own widths first (for sizeof), then stored */
	e->type = sema_storage_type(s, ty_tuple(s, el, e->args.n));
	return true;
}

static bool sema_lvalue_int(Sema *s, Expr *t, const char *what)
{
	if (t->kind == E_VAR)
		return need_int(s, t, what);
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
static bool incdec_held(Sema *s, Expr *e)
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

static bool sema_sizeof(Sema *s, Expr *e)
{
	int bits;
	bool sign;
	if (e->sval) /* offsetof(type, a.b) */
		return sema_ctype_offsetof(s, e);
	if (e->name) {
		if (!cast_type(e->name, &bits, &sign))
			return sema_ctype_sizeof(s, e);
		e->ival = (uint64_t)bits / 8;
	} else {
		return sema_ctype_sizeof(s, e);
	}
	e->type = ty_int(s, 64, false);
	return true;
}

static bool sema_posparam(Sema *s, Expr *e)
{
	const Options *o = &s->sc->opt;
	if (e->ival < 1 || (int)e->ival > o->nparams) {
		e->type = ty_int(s, 64, true);
		e->aux = 0; /* missing parameters read as 0, as in bpftrace */
		return true;
	}
	const char *p = o->params[e->ival - 1];
	char *end;
	long long v = strtoll(p, &end, 0);
	if (!*p || *end)
		return sema_error(s, e->loc, "$%d is '%s', not a number: use str($%d) for a string",
				  (int)e->ival, p, (int)e->ival);
	e->aux = 1;
	e->type = ty_int(s, 64, true);
	(void)v;
	return true;
}

/* unroll($1): a numeric positional parameter becomes the literal it is
 * (a missing one is 0, as in bpftrace) */
static bool posparam_literal(Sema *s, Expr *e)
{
	if (!sema_posparam(s, e))
		return false;
	e->kind = E_INT;
	e->ival = e->aux ? (uint64_t)strtoll(s->sc->opt.params[e->ival - 1], NULL, 0) : 0;
	return true;
}

static bool sema_expr_kind(Sema *s, Expr *e);

static bool sema_expr_typed(Sema *s, Expr *e);
static bool sema_expr_checked(Sema *s, Expr *e);

bool sema_expr(Sema *s, Expr *e)
{
	/* once per probe visit: checking an operand first, then again in the
	 * check of what holds it, would cost 2^depth on nested operators */
	bool memo = sema_hooks(s)->check_once && s->visit;
	if (memo && e->visit == s->visit)
		return e->visit_ok;
	bool ok = sema_expr_checked(s, e);
	if (memo) {
		e->visit = s->visit;
		e->visit_ok = ok;
	}
	return ok;
}

static bool sema_expr_checked(Sema *s, Expr *e)
{
	if (!sema_expr_typed(s, e))
		return false;
	if (e->kind != E_BINOP) /* sema_binop tags it (and warns) before its own warnings */
		sema_addrspace(s, e);
	return true;
}

static bool sema_expr_kind(Sema *s, Expr *e);

/* bpftrace types a read through a "none" value none too: a field, an
 * element, a pointee, the left arm of a ?: */
static bool none_through(const Expr *e)
{
	switch (e->kind) {
	case E_FIELD:
	case E_INDEX: return e->a->none;
	case E_UNOP: return e->op == OP_DEREF && e->a->none;
	case E_TERNARY: return e->b->none;
	default: return false;
	}
}

static bool sema_expr_typed(Sema *s, Expr *e)
{
	e->none = false;
	if (sema_expr_kind(s, e))
		return true;
	e->none |= s->all && none_through(e);
	return false;
}

static bool sema_expr_kind(Sema *s, Expr *e)
{
	switch (e->kind) {
	case E_INT:
		if (e->lit) /* D: the constant's C type */
			e->type = ty_int(s, e->lit <= LIT_UINT ? 32 : 64,
					 e->lit == LIT_INT || e->lit == LIT_LONG);
		else
			e->type = ty_int(s, 64, e->ival <= INT64_MAX);
		return true;
	case E_STR:
		e->type = ty_str(s, (int)e->slen + 1);
		return true;
	case E_BUILTIN:
		/* bpftrace leaves a builtin it refuses (args in BEGIN) untyped */
		e->none = !sema_builtin(s, e);
		return !e->none;
	case E_POSPARAM:
		return sema_posparam(s, e);
	case E_POSCOUNT:
		e->type = ty_int(s, 64, true);
		return true;
	case E_VAR:
		return sema_var(s, e);
	case E_MAP:
		return sema_map(s, e);
	case E_CALL:
		return sema_call(s, e, CALL_EXPR);
	case E_BINOP:
		return sema_binop(s, e);
	case E_UNOP:
		return sema_unop(s, e);
	case E_TERNARY:
		return sema_ternary(s, e);
	case E_FIELD:
		return sema_field(s, e);
	case E_INDEX:
		return sema_ctype_index(s, e);
	case E_CAST:
		return sema_cast(s, e);
	case E_TUPLE:
		return sema_tuple(s, e);
	case E_INCDEC:
		if (!incdec_held(s, e))
			return false;
		if (!sema_lvalue_int(s, e->a, e->op == OP_ADD ? "++" : "--"))
			return false;
		e->type = ty_int(s, 64, true);
		return true;
	case E_SIZEOF:
		return sema_sizeof(s, e);
	}
	return sema_error(s, e->loc, "unknown expression");
}

static bool sema_stmts(Sema *s, const StmtList *l);

/* the value of `$var = v`: a call there may be one only a variable takes
 * (skboutput) */
static bool sema_var_value(Sema *s, Expr *v)
{
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
	if (v->type && storable(v->type))
		var->type = sema_value_storage_type(s, v->type);
	vec_push(&s->vars, var);
}

static bool assign_var(Sema *s, Stmt *st)
{
	Expr *t = st->target, *v = st->expr;
	VarInfo *var = sema_var_find(s, t->name);
	if (st->op != OP_NONE) {
		if (!compound_held(s, st) || !need_int(s, v, "the right side of a compound assignment"))
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
	if (!storable(v->type))
		return sema_error(s, v->loc, "a value of type %s cannot be stored in a variable", tn(v->type));
	if (!var) {
		var = arena_alloc(&s->sc->arena, sizeof(VarInfo));
		var->name = t->name;
		if (!declared(s, t->name, &var->type))
			return false;
		vec_push(&s->vars, var);
	}
	bool grew = false;
	if (!merge_type(s, &var->type, var_storage_type(s, v->type), &grew))
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
	if (s->all) { /* bpftrace's order: the keys' errors, then the value's */
		bool keys = sema_map_key(s, t);
		bool ok = sema_expr(s, v);
		t->map->failed |= !ok;
		t->map->none |= !ok && v->none;
		return keys && ok;
	}
	return sema_expr(s, v) && sema_map_key(s, t);
}

static bool assign_map(Sema *s, Stmt *st)
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
		if (!compound_held(s, st) || !need_int(s, v, "the right side of a compound assignment"))
			return false;
		return sema_lvalue_int(s, t, "a compound assignment");
	}
	bool fresh = !t->map->failed;
	if (!sema_exprs_key(s, v, t)) {
		if (fresh && v->none && s->all && sema_hooks(s)->assign_none)
			sema_hooks(s)->assign_none(s, st, t->map->val);
		return false;
	}
	if (!map_declared(s, t->map))
		return false;
	if (v->type->kind == TY_NONE && !s->strict)
		return true;
	if (type_is_ptr(v->type) && v->type->ctx) /* bpftrace's words and place (the '=') */
		return sema_error(s, st->op_loc, "context cannot be assigned to a map");
	if (!storable(v->type))
		return sema_error(s, v->loc, "a value of type %s cannot be stored in a map", tn(v->type));
	if (!sema_map_value(s, t, sema_value_storage_type(s, v->type),
			    sema_hooks(s)->map_error_at_value ? v->loc : t->loc))
		return false;
	t->type = t->map->val;
	sema_addrspace_assigned(t, v);
	return true;
}

/* `c ? printf(...) : exit();` as a statement: the arms are statements (void
 * calls are allowed there, as in bpftrace), so it becomes if/else. */
static StmtList one_stmt(Sema *s, Expr *e)
{
	Arena *a = &s->sc->ast->arena;
	Stmt *st = arena_alloc(a, sizeof(Stmt));
	st->kind = S_EXPR;
	st->loc = e->loc;
	st->expr = e;
	StmtList l = {arena_alloc(a, sizeof(Stmt *)), 1};
	l.v[0] = st;
	return l;
}

/* a call without a value, or a ?: of such calls */
static bool is_void_call(const Expr *e)
{
	if (e->kind == E_TERNARY)
		return is_void_call(e->b) && is_void_call(e->c);
	const FuncDef *f = e->kind == E_CALL ? func_find(e->name) : NULL;
	return f && f->kind == FK_STMT;
}

/* one arm a void call, the other a value: bpftrace's error */
static bool void_arm_error(Sema *s, Expr *t)
{
	Expr *v = is_void_call(t->b) ? t->c : t->b;
	if (!sema_expr(s, v))
		return false;
	const char *vk = v->type->kind == TY_INT ? "integer" : v->type->kind == TY_STR ? "string"
			 : tn(v->type);
	bool first = v == t->b;
	return sema_error(s, t->a->loc, "Ternary operator must return the same type: have '%s' and "
			  "'%s'", first ? vk : "none", first ? "none" : vk);
}

static void ternary_to_if(Sema *s, Stmt *st)
{
	Expr *t = st->expr;
	st->kind = S_IF;
	st->expr = t->a;
	st->body = one_stmt(s, t->b);
	st->els = one_stmt(s, t->c);
}

/* `jstack();` alone prints the stack, as in DTrace: print(jstack()); the
 * dialect's list (SemaHooks.stack_actions) says which calls do so */
static bool is_stack_action(const Sema *s, const Expr *e)
{
	if (e->kind != E_CALL)
		return false;
	for (const char *const *a = sema_hooks(s)->stack_actions; a && *a; a++)
		if (!strcmp(e->name, *a))
			return true;
	return false;
}

static void jstack_to_print(Sema *s, Stmt *st)
{
	Arena *a = &s->sc->ast->arena;
	Expr *p = arena_alloc(a, sizeof(Expr));
	p->kind = E_CALL;
	p->loc = st->expr->loc;
	p->name = (char *)sema_hooks(s)->stack_print;
	p->args.v = arena_alloc(a, sizeof(Expr *));
	p->args.v[0] = st->expr;
	p->args.n = 1;
	st->expr = p;
}

static bool sema_stmt(Sema *s, Stmt *st)
{
	switch (st->kind) {
	case S_EXPR:
		if (is_stack_action(s, st->expr))
			jstack_to_print(s, st);
		if (st->expr->kind == E_CALL)
			return sema_call(s, st->expr, CALL_STMT);
		if (st->expr->kind == E_TERNARY && (is_void_call(st->expr->b) ||
						    is_void_call(st->expr->c))) {
			if (!is_void_call(st->expr->b) || !is_void_call(st->expr->c))
				return void_arm_error(s, st->expr);
			ternary_to_if(s, st);
			return sema_stmt(s, st);
		}
		return sema_expr(s, st->expr);
	case S_ASSIGN:
		if (st->target->kind == E_VAR)
			return assign_var(s, st);
		return st->target->kind == E_MAP ? assign_map(s, st) : sema_store_assign(s, st);
	case S_IF: {
		bool ok = need_cond(s, st->expr, COND_IF, "an if condition");
		if (!ok && !s->all)
			return false;
		ok = sema_stmts(s, &st->body) && ok;
		if (!ok && !s->all)
			return false;
		return sema_stmts(s, &st->els) && ok;
	}
	case S_UNROLL:
		if (st->expr->kind == E_POSPARAM && !posparam_literal(s, st->expr))
			return false;
		if (st->expr->kind != E_INT)
			return sema_error(s, st->expr->loc, "unroll needs a literal count from 1 to 100");
		if (st->expr->ival < 1 || st->expr->ival > 100) /* bpftrace's words */
			return sema_error(s, st->expr->loc, "unroll %s value is %s", st->expr->ival < 1
					  ? "minimum" : "maximum", st->expr->ival < 1 ? "1" : "100");
		return sema_stmts(s, &st->body);
	case S_WHILE: {
		bool ok = need_int(s, st->expr, "a while condition");
		if (!ok && !s->all)
			return false;
		s->loop_depth++;
		ok = sema_stmts(s, &st->body) && ok;
		s->loop_depth--;
		return ok;
	}
	case S_BREAK:
	case S_CONTINUE:
		if (!s->loop_depth)
			return sema_error(s, st->loc, "%s used outside of a loop",
					  st->kind == S_BREAK ? "break" : "continue");
		return true;
	case S_RETURN:
		return true;
	case S_BLOCK:
		return sema_stmts(s, &st->body);
	}
	return true;
}

static bool sema_stmts(Sema *s, const StmtList *l)
{
	bool ok = true;
	for (int i = 0; i < l->n && (ok || s->all); i++)
		ok = sema_stmt(s, l->v[i]) && ok;
	return ok;
}

bool sema_probe(Sema *s, const Probe *p, const ProbeSpec *spec)
{
	s->probe = p;
	s->spec = spec;
	if (!++s->visit)
		s->visit = 1;
	s->loop_depth = 0;
	s->d_clause = 0;
	sema_reset_vars(s);
	bool ok = !p->pred || need_cond(s, p->pred, COND_PRED, "a predicate");
	if (!ok && !s->all)
		return false;
	return sema_stmts(s, &p->body) && ok;
}
