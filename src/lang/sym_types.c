/* DWARF and BTF descriptions into Types (see sym_types.h).  A DWARF
 * description node becomes one Type for the run, so pointers and records
 * that sym/dwarf_args.c shares (and records reaching themselves through a
 * pointer) stay shared; BTF ids go through btf_types.c's own memo. */
#include "sym_types.h"

#include <stdlib.h>

#include "../util/util.h"
#include "ctypes.h"
#include "../sym/symctx.h"

typedef struct Converted {
	const DwarfType *dt;
	Type *t;
} Converted;
/* the Types converted, in the run's SymCtx */
typedef struct SymTypesCache {
	VEC(Converted) converted;
	Arena arena; /* the Types and their fields */
} SymTypesCache;

static void sym_types_free(void *cache)
{
	SymTypesCache *c = cache;
	vec_free(&c->converted);
	arena_free(&c->arena);
	free(c);
}

static SymTypesCache *types_cache(SymCtx *sc)
{
	return SYM_CACHE(sc, sym_types, sym_types_free);
}

static Type *alloc_type(SymCtx *sc, TypeKind k, int size)
{
	return type_new(&types_cache(sc)->arena, k, size);
}

static Type *int_of_size(SymCtx *sc, int bytes, bool sign)
{
	Type *t = alloc_type(sc, TY_INT, 8);
	t->bits = bytes == 1 || bytes == 2 || bytes == 4 ? bytes * 8 : 64;
	t->is_signed = sign;
	return t;
}

static Type *void_pointee(SymCtx *sc)
{
	Type *t = alloc_type(sc, TY_NONE, 0);
	t->cname = "void";
	return t;
}

static Type *record_type(SymCtx *sc, const DwarfType *dt, Type *t)
{
	t->is_union = dt->is_union;
	t->cname = dt->name;
	t->nfields = dt->nmembers;
	t->fields = dt->nmembers ? arena_alloc(&types_cache(sc)->arena, (size_t)dt->nmembers * sizeof(Field)) : NULL;
	for (int i = 0; i < dt->nmembers; i++) {
		const DwarfMember *m = &dt->members[i];
		t->fields[i] = (Field){m->name, m->offset, m->bit_off, m->bit_width,
				       type_of_dwarf(sc, m->type)};
	}
	return t;
}

/* char[N] is a string, as from BTF; other arrays keep their elements */
static Type *array_type(SymCtx *sc, const DwarfType *dt)
{
	Type *et = type_of_dwarf(sc, dt->inner);
	if (et->kind == TY_INT && !et->pointee && et->bits == 8 && et->is_signed)
		return alloc_type(sc, TY_STR, dt->count);
	Type *t = alloc_type(sc, TY_ARRAY, type_csize(et) * dt->count);
	t->pointee = et;
	t->count = dt->count;
	return t;
}

static Type *remember(SymCtx *sc, const DwarfType *dt, Type *t)
{
	vec_push(&types_cache(sc)->converted, ((Converted){dt, t}));
	return t;
}

Type *type_of_dwarf(SymCtx *sc, const DwarfType *dt)
{
	SymTypesCache *c = types_cache(sc);
	for (int i = 0; i < c->converted.n; i++)
		if (c->converted.v[i].dt == dt)
			return c->converted.v[i].t;
	Type *t;
	switch (dt->kind) {
	case DWT_INT:
		return remember(sc, dt, int_of_size(sc, dt->size, dt->is_signed));
	case DWT_PTR: /* remembered before the pointee: recursive types */
		t = remember(sc, dt, int_of_size(sc, 8, false));
		t->user = true;
		t->pointee = dt->inner ? type_of_dwarf(sc, dt->inner) : void_pointee(sc);
		return t;
	case DWT_RECORD:
		return record_type(sc, dt, remember(sc, dt, alloc_type(sc, TY_RECORD, dt->size)));
	case DWT_ARRAY:
		return remember(sc, dt, array_type(sc, dt));
	default:
		return remember(sc, dt, alloc_type(sc, TY_NONE, 0));
	}
}

Type *type_of_param(SymCtx *sc, const DwarfFunc *f, int i)
{
	const DwarfParam *p = &f->params[i];
	return f->btf ? btf_type_of_id(sc, f->btf, p->btf_id) : type_of_dwarf(sc, p->type);
}

Type *type_of_return(SymCtx *sc, const DwarfFunc *f)
{
	return f->btf && f->ret_btf_id ? btf_type_of_id(sc, f->btf, f->ret_btf_id) : NULL;
}
