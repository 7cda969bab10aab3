/* Type constructors: every Type lives in the script's arena. */
#include <string.h>

#include "sema.h"

Type *ty_simple(Sema *s, TypeKind k, int size)
{
	Type *t = arena_alloc(&s->sc->arena, sizeof(Type));
	t->kind = k;
	t->size = size;
	return t;
}

Type *ty_int(Sema *s, int bits, bool is_signed)
{
	Type *t = ty_simple(s, TY_INT, 8);
	t->bits = bits;
	t->is_signed = is_signed;
	return t;
}

Type *ty_str(Sema *s, int size)
{
	return ty_simple(s, TY_STR, size);
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
	return t;
}
