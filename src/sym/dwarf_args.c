/* Function parameters from DWARF (libdw): each binary's debug info is opened
 * once (found as sym/debuginfo.c finds it), the
 * defining DW_TAG_subprogram DIEs of every CU are indexed by name, and a
 * function's parameters become descriptions of their types (DwarfType:
 * pointers, structs with their members) plus the type text bpftrace -lv
 * prints. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debuginfo.h"
#include "dwarf_local.h"
#include "../util/util.h"
#include "dwarf_args.h"
#include "symctx.h"

typedef struct FuncEnt {
	char *name;
	Dwarf_Off off;
	DwarfFunc *parsed;
} FuncEnt;

typedef struct TypeMemo {
	Dwarf_Off off;
	DwarfType *t;
} TypeMemo;

typedef struct LocalMemo { /* one dwarf_local() answer */
	uint64_t off;
	char *name;
	bool params_only;
	DwarfLocal *local; /* NULL: why */
	char *why;
	struct LocalMemo *next;
} LocalMemo;

typedef struct DwFile {
	char *path;
	Dwarf *dw; /* NULL: no debug info */
	FuncEnt *funcs;
	int nfuncs, cap;
	TypeMemo *types;
	int ntypes, tcap;
	LocalMemo *locals;
	VEC(DwarfType *) descs; /* every description made (new_desc) */
	struct DwFile *next;
} DwFile;

/* the binaries indexed, in the run's SymCtx */
typedef struct DwarfArgsCache {
	DwFile *files;
} DwarfArgsCache;

static void desc_free(DwarfType *t)
{
	for (int i = 0; i < t->nmembers; i++)
		free((char *)t->members[i].name);
	free(t->members);
	free((char *)t->name);
	free(t);
}

static void func_free(DwarfFunc *fn)
{
	for (int i = 0; fn && i < fn->nparams; i++) {
		free(fn->params[i].name);
		free(fn->params[i].ctype);
	}
	if (fn)
		free(fn->params);
	free(fn);
}

static void locals_free(LocalMemo *m)
{
	for (LocalMemo *next; m; m = next) {
		next = m->next;
		if (m->local)
			free(m->local->ctype);
		free(m->local);
		free(m->name);
		free(m->why);
		free(m);
	}
}

static void dwfile_free(DwFile *f)
{
	for (int i = 0; i < f->nfuncs; i++) {
		free(f->funcs[i].name);
		func_free(f->funcs[i].parsed);
	}
	free(f->funcs);
	free(f->types);
	locals_free(f->locals);
	for (int i = 0; i < f->descs.n; i++)
		desc_free(f->descs.v[i]);
	vec_free(&f->descs);
	free(f->path);
	free(f); /* f->dw is debuginfo.c's */
}

static void dwarf_args_free(void *cache)
{
	DwarfArgsCache *c = cache;
	for (DwFile *f = c->files, *next; f; f = next) {
		next = f->next;
		dwfile_free(f);
	}
	free(c);
}

static int cmp_ent(const void *a, const void *b)
{
	return strcmp(((const FuncEnt *)a)->name, ((const FuncEnt *)b)->name);
}

static bool is_definition(Dwarf_Die *d)
{
	Dwarf_Addr lo;
	if (dwarf_hasattr(d, DW_AT_declaration))
		return false;
	return dwarf_lowpc(d, &lo) == 0 || dwarf_hasattr(d, DW_AT_ranges);
}

static void index_funcs(DwFile *f)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	while (dwarf_nextcu(f->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, child;
		if (dwarf_offdie(f->dw, off + hsize, &cu) && dwarf_child(&cu, &child) == 0) {
			do {
				if (dwarf_tag(&child) != DW_TAG_subprogram || !is_definition(&child))
					continue;
				const char *name = dwarf_diename(&child);
				if (!name)
					continue;
				if (f->nfuncs == f->cap) {
					f->cap = f->cap ? f->cap * 2 : 256;
					f->funcs = realloc(f->funcs, (size_t)f->cap * sizeof(*f->funcs));
					if (!f->funcs)
						abort();
				}
				f->funcs[f->nfuncs++] =
					(FuncEnt){xstrdup(name), dwarf_dieoffset(&child), NULL};
			} while (dwarf_siblingof(&child, &child) == 0);
		}
		off = next;
	}
	if (f->nfuncs)
		qsort(f->funcs, (size_t)f->nfuncs, sizeof(*f->funcs), cmp_ent);
}

static DwFile *get_file(SymCtx *sc, const char *path)
{
	DwarfArgsCache *c = SYM_CACHE(sc, dwarf_args, dwarf_args_free);
	for (DwFile *f = c->files; f; f = f->next)
		if (!strcmp(f->path, path))
			return f;
	DwFile *f = xcalloc(1, sizeof(*f));
	f->path = xstrdup(path);
	f->dw = debuginfo_get(sc, path)->dw;
	if (f->dw)
		index_funcs(f);
	f->next = c->files;
	c->files = f;
	return f;
}

/* ---- type names, as bpftrace 0.17 prints them ---- */

static void dw_type_name(Dwarf_Die *t, StrBuf *b, int depth)
{
	if (!t || depth > 16) {
		sb_puts(b, "void");
		return;
	}
	Dwarf_Die in;
	bool has = dw_type_of(t, &in);
	const char *name = dwarf_diename(t);
	switch (dwarf_tag(t)) {
	case DW_TAG_pointer_type:
		dw_type_name(has ? &in : NULL, b, depth + 1);
		sb_puts(b, "*");
		return;
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
		sb_puts(b, dwarf_tag(t) == DW_TAG_const_type ? "const " : "volatile ");
		dw_type_name(has ? &in : NULL, b, depth + 1);
		return;
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
		dw_type_name(has ? &in : NULL, b, depth + 1);
		return;
	case DW_TAG_structure_type:
		sb_printf(b, "struct %s", name ? name : "(anonymous)");
		return;
	case DW_TAG_union_type:
		sb_printf(b, "union %s", name ? name : "(anonymous)");
		return;
	case DW_TAG_enumeration_type:
		sb_printf(b, "enum %s", name ? name : "(anonymous)");
		return;
	case DW_TAG_array_type:
		dw_type_name(has ? &in : NULL, b, depth + 1);
		sb_puts(b, "[]");
		return;
	case DW_TAG_subroutine_type:
		dw_type_name(has ? &in : NULL, b, depth + 1);
		sb_puts(b, "(*)()");
		return;
	default:
		sb_puts(b, name ? name : "void");
	}
}

/* ---- type descriptions ---- */

/* every description is kept in its file's list (descriptions share
 * each other: freed from the list, not the graph) */
static DwarfType *new_desc(DwFile *f, DwarfTypeKind k, int size)
{
	DwarfType *t = xcalloc(1, sizeof(DwarfType));
	t->kind = k;
	t->size = size;
	vec_push(&f->descs, t);
	return t;
}

static DwarfType *int_desc(DwFile *f, int bytes, bool sign)
{
	DwarfType *t = new_desc(f, DWT_INT, bytes);
	t->is_signed = sign;
	return t;
}

static int byte_size(Dwarf_Die *d)
{
	Dwarf_Word v;
	Dwarf_Attribute a;
	if (dwarf_attr_integrate(d, DW_AT_byte_size, &a) && dwarf_formudata(&a, &v) == 0)
		return (int)v;
	return 0;
}

static DwarfType *make_type(DwFile *f, Dwarf_Die *d, int depth);

static void memo_add(DwFile *f, Dwarf_Off off, DwarfType *t)
{
	if (f->ntypes == f->tcap) {
		f->tcap = f->tcap ? f->tcap * 2 : 64;
		f->types = realloc(f->types, (size_t)f->tcap * sizeof(*f->types));
		if (!f->types)
			abort();
	}
	f->types[f->ntypes++] = (TypeMemo){off, t};
}

static void add_member(DwarfType *t, int *cap, DwarfMember m)
{
	if (t->nmembers == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		t->members = realloc(t->members, (size_t)*cap * sizeof(DwarfMember));
		if (!t->members)
			abort();
	}
	t->members[t->nmembers++] = m;
}

static DwarfType *make_record(DwFile *f, Dwarf_Die *d, int depth)
{
	bool un = dwarf_tag(d) == DW_TAG_union_type;
	DwarfType *t = new_desc(f, DWT_RECORD, byte_size(d));
	t->is_union = un;
	StrBuf b = {0};
	const char *name = dwarf_diename(d);
	sb_printf(&b, "%s %s", un ? "union" : "struct", name ? name : "(anonymous)");
	t->name = b.s;
	memo_add(f, dwarf_dieoffset(d), t); /* before the members: recursive types */
	Dwarf_Die m;
	int cap = 0;
	if (dwarf_child(d, &m) != 0)
		return t;
	do {
		if (dwarf_tag(&m) != DW_TAG_member)
			continue;
		Dwarf_Die mt;
		DwarfType *ft = dw_type_of(&m, &mt) ? make_type(f, &mt, depth + 1) : new_desc(f, DWT_NONE, 0);
		Dwarf_Word off = 0, bits = 0, bitoff = 0;
		Dwarf_Attribute a;
		if (dwarf_attr(&m, DW_AT_data_member_location, &a))
			dwarf_formudata(&a, &off);
		if (dwarf_attr(&m, DW_AT_bit_size, &a) && dwarf_formudata(&a, &bits) == 0 &&
		    dwarf_attr(&m, DW_AT_data_bit_offset, &a) && dwarf_formudata(&a, &bitoff) == 0)
			off = bitoff / 8;
		const char *mn = dwarf_diename(&m);
		add_member(t, &cap, (DwarfMember){
			.name = xstrdup(mn ? mn : ""),
			.offset = (int)off,
			.bit_off = bits ? (int)(bitoff % 8) : 0,
			.bit_width = (int)bits,
			.type = ft,
		});
	} while (dwarf_siblingof(&m, &m) == 0);
	return t;
}

static DwarfType *make_array(DwFile *f, Dwarf_Die *d, Dwarf_Die *el, int depth)
{
	Dwarf_Die sub;
	Dwarf_Word n = 0;
	if (dwarf_child(d, &sub) == 0 && dwarf_tag(&sub) == DW_TAG_subrange_type) {
		Dwarf_Attribute a;
		Dwarf_Word v;
		if (dwarf_attr(&sub, DW_AT_count, &a) && dwarf_formudata(&a, &v) == 0)
			n = v;
		else if (dwarf_attr(&sub, DW_AT_upper_bound, &a) && dwarf_formudata(&a, &v) == 0)
			n = v + 1;
	}
	DwarfType *t = new_desc(f, DWT_ARRAY, 0);
	t->inner = make_type(f, el, depth + 1);
	t->count = (int)n;
	return t;
}

static DwarfType *make_pointer(DwFile *f, Dwarf_Die *d, Dwarf_Die *in, int depth)
{
	DwarfType *t = new_desc(f, DWT_PTR, 8);
	memo_add(f, dwarf_dieoffset(d), t); /* before the pointee: recursive types */
	if (in)
		t->inner = make_type(f, in, depth + 1);
	return t;
}

static DwarfType *make_type(DwFile *f, Dwarf_Die *d, int depth)
{
	Dwarf_Off off = dwarf_dieoffset(d);
	for (int i = 0; i < f->ntypes; i++)
		if (f->types[i].off == off)
			return f->types[i].t;
	if (depth > 24)
		return new_desc(f, DWT_NONE, 0);
	Dwarf_Die in;
	bool has = dw_type_of(d, &in);
	switch (dwarf_tag(d)) {
	case DW_TAG_base_type: {
		Dwarf_Word enc = 0;
		Dwarf_Attribute a;
		if (dwarf_attr(d, DW_AT_encoding, &a))
			dwarf_formudata(&a, &enc);
		int sz = byte_size(d);
		if (enc == DW_ATE_float || enc == DW_ATE_complex_float || sz > 8 || sz <= 0)
			return new_desc(f, DWT_NONE, 0);
		return int_desc(f, sz, enc == DW_ATE_signed || enc == DW_ATE_signed_char);
	}
	case DW_TAG_enumeration_type:
		return int_desc(f, byte_size(d) ? byte_size(d) : 4, false);
	case DW_TAG_typedef:
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
		return has ? make_type(f, &in, depth + 1) : new_desc(f, DWT_NONE, 0);
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		return make_pointer(f, d, has ? &in : NULL, depth);
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_class_type:
		return make_record(f, d, depth);
	case DW_TAG_array_type:
		return has ? make_array(f, d, &in, depth) : new_desc(f, DWT_NONE, 0);
	default:
		return new_desc(f, DWT_NONE, 0);
	}
}

/* A struct/union defined at the top of one of the binary's CUs */
static bool find_record_die(DwFile *f, bool un, const char *name, Dwarf_Die *out)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	int tag = un ? DW_TAG_union_type : DW_TAG_structure_type;
	while (dwarf_nextcu(f->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		if (dwarf_offdie(f->dw, off + hsize, &cu) && dwarf_child(&cu, out) == 0) {
			do {
				const char *n = dwarf_diename(out);
				if (dwarf_tag(out) == tag && n && !strcmp(n, name) &&
				    !dwarf_hasattr(out, DW_AT_declaration))
					return true;
			} while (dwarf_siblingof(out, out) == 0);
		}
		off = next;
	}
	return false;
}

const DwarfType *dwarf_record(SymCtx *sc, const char *path, bool un, const char *name)
{
	DwFile *f = get_file(sc, path);
	Dwarf_Die d;
	if (!f->dw || !find_record_die(f, un, name, &d))
		return NULL;
	return make_type(f, &d, 0);
}

static DwarfFunc *parse_func(DwFile *f, Dwarf_Off off)
{
	Dwarf_Die d, p;
	DwarfFunc *fn = xcalloc(1, sizeof(*fn));
	if (!dwarf_offdie(f->dw, off, &d) || dwarf_child(&d, &p) != 0)
		return fn;
	int cap = 0;
	do {
		if (dwarf_tag(&p) != DW_TAG_formal_parameter)
			continue;
		Dwarf_Die t;
		bool has = dw_type_of(&p, &t);
		StrBuf b = {0};
		dw_type_name(has ? &t : NULL, &b, 0);
		const char *name = dwarf_diename(&p);
		if (fn->nparams == cap) {
			cap = cap ? cap * 2 : 8;
			fn->params = realloc(fn->params, (size_t)cap * sizeof(DwarfParam));
			if (!fn->params)
				abort();
		}
		fn->params[fn->nparams++] = (DwarfParam){
			.name = xstrdup(name ? name : ""),
			.ctype = b.s ? b.s : xstrdup("void"),
			.type = has ? make_type(f, &t, 0) : new_desc(f, DWT_NONE, 0),
		};
	} while (dwarf_siblingof(&p, &p) == 0);
	return fn;
}

const DwarfFunc *dwarf_func(SymCtx *sc, const char *path, const char *func)
{
	DwFile *f = get_file(sc, path);
	if (!f->dw || !f->nfuncs)
		return NULL;
	FuncEnt key = {.name = (char *)func};
	FuncEnt *e = bsearch(&key, f->funcs, (size_t)f->nfuncs, sizeof(*f->funcs), cmp_ent);
	if (!e)
		return NULL;
	if (!e->parsed)
		e->parsed = parse_func(f, e->off);
	return e->parsed;
}

const DwarfParam *dwarf_param(const DwarfFunc *f, const char *name, int *idx)
{
	for (int i = 0; f && i < f->nparams; i++)
		if (!strcmp(f->params[i].name, name)) {
			*idx = i;
			return &f->params[i];
		}
	return NULL;
}

bool dwarf_present(SymCtx *sc, const char *path)
{
	return get_file(sc, path)->dw != NULL;
}

/* x86-64: a DWARF register number's slot in struct pt_regs, -1 if none */
static int dwarf_reg_ctx_off(int regno)
{
	static const int off[] = {80, 96, 88, 40, 104, 112, 32, 152, 72, 64, 56, 48, 24, 16, 8, 0, 128};
	return regno >= 0 && regno < (int)(sizeof(off) / sizeof(*off)) ? off[regno] : -1;
}

static DwarfLocal *describe_local(SymCtx *sc, DwFile *f, uint64_t off, const char *name, bool params_only, StrBuf *why)
{
	DebugInfo *di = debuginfo_get(sc, f->path);
	Dwarf_Addr pc;
	DwLocal l;
	if (!f->dw || !debuginfo_offset_to_vaddr(di, off, &pc)) {
		sb_printf(why, "%s has no debug information (build it with -g)", f->path);
		return NULL;
	}
	if (dw_local_at(di, pc, name, params_only, &l, why) != 0)
		return NULL;
	int ctx_off = l.kind == DWL_CONST ? 0 : dwarf_reg_ctx_off(l.regno);
	if (ctx_off < 0) {
		sb_printf(why, "'%s' is in DWARF register %d, which uprobes do not save", name, l.regno);
		return NULL;
	}
	DwarfLocal *out = xcalloc(1, sizeof(*out));
	*out = (DwarfLocal){.kind = (int)l.kind, .ctx_off = ctx_off, .offset = l.offset, .value = l.value};
	Dwarf_Die t;
	bool has = dw_type_of(&l.var, &t);
	StrBuf b = {0};
	dw_type_name(has ? &t : NULL, &b, 0);
	out->ctype = b.s;
	out->type = has ? make_type(f, &t, 0) : new_desc(f, DWT_NONE, 0);
	return out;
}

const DwarfLocal *dwarf_local(SymCtx *sc, const char *path, uint64_t off, const char *name, bool params_only,
			      const char **why)
{
	DwFile *f = get_file(sc, path);
	for (LocalMemo *m = f->locals; m; m = m->next)
		if (m->off == off && m->params_only == params_only && !strcmp(m->name, name)) {
			*why = m->why;
			return m->local;
		}
	StrBuf w = {0};
	LocalMemo *m = xcalloc(1, sizeof(*m));
	*m = (LocalMemo){off, xstrdup(name), params_only, describe_local(sc, f, off, name, params_only, &w), NULL,
			 f->locals};
	m->why = w.s;
	f->locals = m;
	*why = m->why;
	return m->local;
}
