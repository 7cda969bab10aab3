/* How values are stored: the type a value takes as a map key, a map
 * value, a variable or a tuple element, and merging the type of a new use
 * into the one recorded (a map's or a variable's). */
#include "sema_int.h"

#include <string.h>

/* What a value becomes when stored in a map, a variable or a tuple:
 * integers widen to 64 bits. */
Type *sema_storage_type(Sema *s, Type *t)
{
	if (t->kind == TY_INT && t->bits != 64)
		return ty_int_as(s, 64, t);
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
	w->names = t->names;
	w->elem_as = t->elem_as;
	w->c_size = t->c_size; /* sizeof keeps the elements' own widths */
	w->c_align = t->c_align;
	return w;
}

bool sema_storable(const Type *t)
{
	return t && t->kind != TY_NONE && t->kind != TY_CTX && !type_is_agg(t);
}

/* two tuples, or two records of the same fields (in any order) */
static bool type_same_names(const Type *a, const Type *b)
{
	if (!a->names || !b->names)
		return !a->names && !b->names;
	for (int i = 0; i < b->nelem; i++)
		if (type_elem_slot(a, b, i) < 0)
			return false;
	return true;
}

/* Merge `t` into the type already recorded in *slot: the same kind is
 * required; strings take the larger size.  Sets *grew when *slot changes. */
bool sema_merge_type(Sema *s, Type **slot, Type *t, bool *grew)
{
	Type *o = *slot;
	if (!o) {
		*slot = t;
		*grew = true;
		return true;
	}
	if (o->kind != t->kind)
		return false;
	if (o->kind == TY_RECORD && o->cname && t->cname && strcmp(o->cname, t->cname))
		return false; /* struct a and struct b: not one type, whatever their layout */
	if (o->kind == TY_STR && t->size > o->size) {
		*slot = t;
		*grew = true;
	}
	if (o->kind == TY_LHIST &&
	    (o->lh_min != t->lh_min || o->lh_max != t->lh_max || o->lh_step != t->lh_step))
		return false;
	if (o->kind != TY_TUPLE)
		return true;
	if (o->nelem != t->nelem || !type_same_names(o, t))
		return false;
	Type *el[o->nelem];
	bool changed = false;
	for (int i = 0; i < o->nelem; i++)
		el[i] = o->elem[i];
	for (int i = 0; i < t->nelem; i++) /* a record's fields by name: o's order stays */
		if (!sema_merge_type(s, &el[type_elem_slot(o, t, i)], t->elem[i], &changed))
			return false;
	if (changed) {
		*slot = ty_tuple(s, el, o->nelem);
		(*slot)->names = o->names;
		*grew = true;
	}
	return true;
}

/* A key element as stored: bpftrace widens integers to 64 bits; D keeps
 * their width (still in an 8-byte slot), which dtrace prints keys by
 * (" %8d" for an int, " %16lld" for a long long). */
Type *sema_key_storage_type(Sema *s, Type *t)
{
	if (sema_hooks(s)->ints_keep_width && t->kind == TY_INT && !t->pointee && t->bits &&
	    t->bits != 64)
		return ty_int_as(s, t->bits, t);
	return sema_storage_type(s, t);
}

/* A variable's or array element's value as stored: in D an integer keeps
 * the width and sign of the variable's type (its declaration's or its first
 * assignment's: `x = 3` makes an int), stored sign- or zero-extended in its
 * 8-byte slot; bpftrace widens it to 64 bits. */
Type *sema_value_storage_type(Sema *s, Type *t)
{
	return sema_key_storage_type(s, t);
}

/* A $variable's value as stored: as value_storage_type, but in bpftrace's
 * dialect too an integer keeps the width and sign of its first assignment,
 * as bpftrace 0.17's variables do (`$u = (uint32)3` is a uint32: -$u is
 * 4294967293, `$u = 1 << 40` stores 0); sign- or zero-extended in its
 * 8-byte slot. */
Type *sema_var_storage_type(Sema *s, Type *t)
{
	if (t->kind == TY_INT && !t->pointee && t->bits > 0 && t->bits < 64)
		return ty_int_as(s, t->bits, t);
	return sema_value_storage_type(s, t);
}
