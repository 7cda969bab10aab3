/* Type constructors for sema and the families' checks: every Type lives
 * in the script's arena (Sema.sc), so they belong with sema, not lang/. */
#include <string.h>

#include "sema.h"
#include "sema_hooks.h"

Type *ty_simple(Sema *s, TypeKind k, int size)
{
	return type_new(&s->sc->arena, k, size);
}

Type *ty_int(Sema *s, int bits, bool is_signed)
{
	Type *t = ty_simple(s, TY_INT, 8);
	t->bits = bits;
	t->is_signed = is_signed;
	return t;
}

Type *ty_copy(Sema *s, const Type *t)
{
	Type *c = ty_simple(s, t->kind, t->size);
	*c = *t;
	return c;
}

Type *ty_int_as(Sema *s, int bits, const Type *t)
{
	Type *w = ty_int(s, bits, t->is_signed);
	w->enumerators = t->enumerators;
	w->enum_named = t->enum_named;
	return w;
}

Type *ty_bool(Sema *s)
{
	Type *t = ty_int(s, 64, false);
	t->is_bool = true;
	return t;
}

Type *sema_truth_type(Sema *s)
{
	return sema_hooks(s)->bools ? ty_bool(s) : ty_int(s, 64, false);
}

Type *ty_str(Sema *s, int size)
{
	return ty_simple(s, TY_STR, size);
}

/* An element's size and alignment in bpftrace's tuple layout */
static void c_layout(const Type *t, int *size, int *align)
{
	switch (t->kind) {
	case TY_INT:
		*size = *align = t->pointee ? 8 : t->bits / 8;
		break;
	case TY_STR:
		*size = t->size;
		*align = 1;
		break;
	case TY_TUPLE:
		*size = t->c_size;
		*align = t->c_align;
		break;
	default:
		*size = t->size;
		*align = 8;
	}
}

Type *ty_tuple(Sema *s, Type **elems, int n)
{
	Type *t = ty_simple(s, TY_TUPLE, 0);
	t->nelem = n;
	t->elem = arena_alloc(&s->sc->arena, sizeof(Type *) * (size_t)n);
	t->offset = arena_alloc(&s->sc->arena, sizeof(int) * (size_t)n);
	int off = 0;
	for (int i = 0; i < n; i++) {
		t->elem[i] = elems[i];
		t->offset[i] = off;
		off += (elems[i]->size + 7) & ~7;
	}
	t->size = off;
	int c_off = 0, c_align = 1;
	for (int i = 0; i < n; i++) {
		int sz, al;
		c_layout(elems[i], &sz, &al);
		c_off = (c_off + al - 1) / al * al + sz;
		c_align = al > c_align ? al : c_align;
	}
	t->c_size = (c_off + c_align - 1) / c_align * c_align;
	t->c_align = c_align;
	return t;
}
