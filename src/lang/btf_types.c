/* Kernel types from BTF (/sys/kernel/btf/vmlinux), read with libbpf on
 * first use and converted one type at a time: a record's fields are read
 * only when a member is looked up or the record is printed, and each BTF
 * id is converted once (memoized), so a script touching curtask->comm
 * converts a handful of types out of the kernel's ~100k. */
#include <bpf/btf.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctypes.h"
#include "../sym/symctx.h"


/* Each BTF object sym/btf_load.c opened (vmlinux's, space 0, or a
 * module's, split on vmlinux's: its ids continue after vmlinux's, which it
 * shares) has its memo here: types are converted once per id; a module's
 * ids below vmlinux's count are vmlinux's, converted there, so struct file
 * is one Type everywhere. */
typedef struct BtfSpace {
	SymCtx *sc; /* the run's readers, whose cache holds this */
	int index;  /* btf_space(sc, index) */
	struct btf *btf;
	Type **memo;
} BtfSpace;

/* the Types converted, in the run's SymCtx (they live as long as it) */
typedef struct BtfTypesCache {
	Arena arena;
	Type *void_type;
	BtfSpace spaces[BTF_MAX_SPACES];
	Type *lazy[4]; /* btf_lazy_record(sc)'s, by name */
	const char *lazy_names[4];
} BtfTypesCache;

static void btf_types_free(void *cache)
{
	BtfTypesCache *c = cache;
	for (int i = 0; i < BTF_MAX_SPACES; i++)
		free(c->spaces[i].memo);
	arena_free(&c->arena);
	free(c);
}

static BtfTypesCache *types(SymCtx *sc)
{
	return SYM_CACHE(sc, btf_types, btf_types_free);
}
#define kbtf (btf_kernel(sc))

/* Space i with its memo (sized on first use), or NULL if not opened. */
static BtfSpace *space_at(SymCtx *sc, int i)
{
	if (i < 0 || i >= btf_space_count(sc))
		return NULL;
	BtfSpace *sp = &types(sc)->spaces[i];
	if (!sp->memo) {
		sp->sc = sc;
		sp->index = i;
		sp->btf = btf_space(sc, i);
		sp->memo = calloc(btf__type_cnt(sp->btf), sizeof(Type *));
	}
	return sp;
}

static Type *get_void(SymCtx *sc)
{
	BtfTypesCache *c = types(sc);
	if (!c->void_type) {
		c->void_type = type_new(&types(sc)->arena, TY_NONE, 0);
		c->void_type->cname = "void";
	}
	return c->void_type;
}

static const char *cname_of(SymCtx *sc, const char *kw, const char *name)
{
	size_t n = strlen(kw) + strlen(name) + 2;
	char *s = arena_alloc(&types(sc)->arena, n);
	snprintf(s, n, "%s %s", kw, *name ? name : "(anonymous)");
	return s;
}

/* char[N] is a string, unsigned char[N] (u8, __u8...) an array, as in
 * bpftrace; const/volatile do not matter */
static bool is_plain_char(const struct btf *b, __u32 id)
{
	const struct btf_type *bt = btf__type_by_id(b, id);
	while (bt && (btf_is_const(bt) || btf_is_volatile(bt)))
		bt = btf__type_by_id(b, bt->type);
	if (!bt || !btf_is_int(bt))
		return false;
	const char *n = btf__name_by_offset(b, bt->name_off);
	return !strcmp(n, "char") || !strcmp(n, "signed char");
}

static Type *convert(BtfSpace *sp, __u32 id);

static Type *convert_int(SymCtx *sc, const struct btf_type *bt)
{
	int size = (int)bt->size;
	if (size != 1 && size != 2 && size != 4 && size != 8) {
		/* __int128 and friends: bytes */
		Type *el = type_new(&types(sc)->arena, TY_INT, 8);
		el->bits = 8;
		Type *a = type_new(&types(sc)->arena, TY_ARRAY, size);
		a->pointee = el;
		a->count = size;
		return a;
	}
	Type *t = type_new(&types(sc)->arena, TY_INT, 8);
	t->bits = size * 8;
	t->is_signed = btf_is_int(bt) ? (btf_int_encoding(bt) & BTF_INT_SIGNED) != 0
		       : btf_is_any_enum(bt) ? btf_kflag(bt) : false;
	return t;
}

static Type *convert_ptr(BtfSpace *sp, const struct btf_type *bt)
{
	SymCtx *sc = sp->sc;
	__u32 tid = bt->type;
	bool user = false;
	/* __user shows as a type tag "user" when the kernel was built with it */
	for (;;) {
		const struct btf_type *x = btf__type_by_id(sp->btf, tid);
		if (!x || !btf_is_type_tag(x))
			break;
		user |= !strcmp(btf__name_by_offset(sp->btf, x->name_off), "user");
		tid = x->type;
	}
	Type *t = type_new(&types(sc)->arena, TY_INT, 8);
	t->bits = 64;
	t->user = user;
	const struct btf_type *target = btf__type_by_id(sp->btf, tid);
	t->pointee = !target || btf_is_func_proto(target) ? get_void(sc) : convert(sp, tid);
	return t;
}

/* an enum's names, for printing its values by name: built from the last
 * one back, as kernel enums have hundreds */
static void add_enumerators(SymCtx *sc, const struct btf *b, const struct btf_type *bt, Type *t)
{
	bool sign = btf_kflag(bt);
	for (int i = btf_vlen(bt) - 1; i >= 0; i--) {
		Enumerator *n = arena_alloc(&types(sc)->arena, sizeof(Enumerator));
		if (btf_is_enum(bt)) {
			const struct btf_enum *e = &btf_enum(bt)[i];
			n->name = btf__name_by_offset(b, e->name_off);
			n->value = sign ? (int64_t)e->val : (int64_t)(__u32)e->val;
		} else {
			const struct btf_enum64 *e = &btf_enum64(bt)[i];
			n->name = btf__name_by_offset(b, e->name_off);
			n->value = (int64_t)btf_enum64_value(e);
		}
		n->next = (Enumerator *)t->enumerators;
		t->enumerators = n;
	}
}

static Type *convert(BtfSpace *sp, __u32 id)
{
	SymCtx *sc = sp->sc;
	if (id == 0)
		return get_void(sc);
	if (id < btf__type_cnt(kbtf))
		sp = space_at(sc, 0);
	if (sp->memo[id])
		return sp->memo[id];
	struct btf *b = sp->btf;
	const struct btf_type *bt = btf__type_by_id(b, id);
	if (!bt)
		return get_void(sc);
	const char *name = btf__name_by_offset(b, bt->name_off);
	Type *t;
	switch (btf_kind(bt)) {
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
		t = convert_int(sc, bt);
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		t = convert_int(sc, bt);
		if (t->kind == TY_INT) {
			t->cname = cname_of(sc, "enum", name);
			add_enumerators(sc, b, bt, t);
		}
		break;
	case BTF_KIND_PTR:
		t = convert_ptr(sp, bt);
		break;
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_array(bt);
		Type *el = convert(sp, a->type);
		if (el->kind == TY_INT && el->bits == 8 && is_plain_char(b, a->type) && !el->pointee &&
		    !el->cname && a->nelems > 0) {
			t = type_new(&types(sc)->arena, TY_STR, (int)a->nelems); /* char[N]: a string */
		} else {
			int esz = type_csize(el);
			if (el->kind == TY_RECORD)
				esz = type_record_size(el);
			t = type_new(&types(sc)->arena, TY_ARRAY, esz * (int)a->nelems);
			t->pointee = el;
			t->count = (int)a->nelems;
		}
		break;
	}
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		t = type_new(&types(sc)->arena, TY_RECORD, (int)bt->size);
		t->is_union = btf_is_union(bt);
		t->cname = cname_of(sc, t->is_union ? "union" : "struct", name);
		t->btf_id = (int)id;
		t->btf_space = sp->index;
		t->sym = sc;
		t->pending = true;
		break;
	case BTF_KIND_FWD: {
		bool un = btf_kflag(bt);
		int full = btf__find_by_name_kind(b, name, un ? BTF_KIND_UNION : BTF_KIND_STRUCT);
		if (full > 0) {
			t = convert(sp, (__u32)full);
		} else {
			t = type_new(&types(sc)->arena, TY_RECORD, 0);
			t->cname = cname_of(sc, un ? "union" : "struct", name);
		}
		break;
	}
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		t = convert(sp, bt->type);
		break;
	default:
		t = get_void(sc);
	}
	sp->memo[id] = t;
	return t;
}

/* Fields of a record, with anonymous members kept as such (lookups
 * descend into them). */
static void read_fields(Type *t)
{
	SymCtx *sc = t->sym;
	BtfSpace *sp = space_at(sc, t->btf_space);
	const struct btf_type *bt = btf__type_by_id(sp->btf, (__u32)t->btf_id);
	int n = btf_vlen(bt);
	Field *f = arena_alloc(&types(sc)->arena, sizeof(Field) * (size_t)(n ? n : 1));
	const struct btf_member *m = btf_members(bt);
	for (int i = 0; i < n; i++) {
		__u32 bitpos = btf_member_bit_offset(bt, (__u32)i);
		__u32 width = btf_member_bitfield_size(bt, (__u32)i);
		f[i].name = btf__name_by_offset(sp->btf, m[i].name_off);
		f[i].offset = (int)(bitpos / 8);
		if (width) {
			f[i].bit_off = (int)(bitpos % 8);
			f[i].bit_width = (int)width;
		}
		f[i].type = convert(sp, m[i].type);
	}
	t->fields = f;
	t->nfields = n;
}

static bool resolve_pending(Type *t)
{
	if (!t->pending)
		return true;
	SymCtx *sc = t->sym;
	if (!btf_kernel(sc))
		return false;
	if (!t->btf_id) {
		/* a lazy record: find it by name now */
		const char *sp = strchr(t->cname, ' ');
		int id = btf__find_by_name_kind(kbtf, sp ? sp + 1 : t->cname,
						t->is_union ? BTF_KIND_UNION : BTF_KIND_STRUCT);
		if (id <= 0)
			return false;
		Type *full = convert(space_at(sc, 0), (__u32)id);
		if (full->pending)
			read_fields(full);
		full->pending = false;
		t->size = full->size;
		t->fields = full->fields;
		t->nfields = full->nfields;
		t->btf_id = id;
		t->pending = false;
		return true;
	}
	read_fields(t);
	t->pending = false;
	return true;
}

const Field *type_fields(Type *t, int *n)
{
	if (t->kind != TY_RECORD) {
		*n = 0;
		return NULL;
	}
	resolve_pending(t);
	*n = t->nfields;
	return t->fields;
}

int type_record_size(Type *t)
{
	if (t->kind != TY_RECORD)
		return type_csize(t);
	if (!resolve_pending(t))
		return -1;
	return t->size;
}

Type *btf_lazy_record(SymCtx *sc, const char *kw, const char *name)
{
	BtfTypesCache *c = types(sc);
	Type **cache = c->lazy;
	const char **names = c->lazy_names;
	for (int i = 0; i < 4 && names[i]; i++)
		if (!strcmp(names[i], name))
			return cache[i];
	Type *t = type_new(&types(sc)->arena, TY_RECORD, 0);
	t->is_union = !strcmp(kw, "union");
	t->cname = cname_of(sc, kw, name);
	t->sym = sc;
	t->pending = true;
	for (int i = 0; i < 4; i++)
		if (!names[i]) {
			names[i] = arena_strdup(&types(sc)->arena, name);
			cache[i] = t;
			break;
		}
	return t;
}

Type *btf_find_type(SymCtx *sc, const char *kw, const char *name)
{
	if (!btf_kernel(sc))
		return NULL;
	int kind = !kw ? BTF_KIND_TYPEDEF
		   : !strcmp(kw, "struct") ? BTF_KIND_STRUCT
		   : !strcmp(kw, "union") ? BTF_KIND_UNION : BTF_KIND_ENUM;
	int id = btf__find_by_name_kind(kbtf, name, kind);
	if (id <= 0 && kind == BTF_KIND_ENUM)
		id = btf__find_by_name_kind(kbtf, name, BTF_KIND_ENUM64);
	if (id <= 0 && !kw)
		id = btf__find_by_name_kind(kbtf, name, BTF_KIND_INT);
	if (id <= 0)
		return NULL;
	return convert(space_at(sc, 0), (__u32)id);
}

Type *btf_type_of_id(SymCtx *sc, const struct btf *b, int id)
{
	BtfSpace *sp = btf_kernel(sc) ? space_at(sc, btf_space_index(sc, b)) : NULL;
	return sp ? convert(sp, (__u32)id) : NULL;
}

bool btf_enum_value(SymCtx *sc, const char *name, int64_t *v)
{
	if (!btf_kernel(sc))
		return false;
	__u32 n = btf__type_cnt(kbtf);
	for (__u32 id = 1; id < n; id++) {
		const struct btf_type *bt = btf__type_by_id(kbtf, id);
		if (btf_is_enum(bt)) {
			const struct btf_enum *e = btf_enum(bt);
			for (int i = 0; i < btf_vlen(bt); i++)
				if (!strcmp(btf__name_by_offset(kbtf, e[i].name_off), name)) {
					*v = btf_kflag(bt) ? (int64_t)e[i].val : (int64_t)(__u32)e[i].val;
					return true;
				}
		} else if (btf_is_enum64(bt)) {
			const struct btf_enum64 *e = btf_enum64(bt);
			for (int i = 0; i < btf_vlen(bt); i++)
				if (!strcmp(btf__name_by_offset(kbtf, e[i].name_off), name)) {
					*v = (int64_t)btf_enum64_value(&e[i]);
					return true;
				}
		}
	}
	return false;
}

/* -lv: after a tracepoint field whose type is a struct or union pointer
 * ("const struct cred *"), the members of that record from BTF, one a line
 * after `indent`: "+OFFSET TYPE NAME" (bitfields add ":WIDTH").  Nothing
 * for other types or without BTF, so the bpftrace lines stay as they are. */
void ctype_print_layout(SymCtx *sc, FILE *out, const char *ctype, const char *indent)
{
	const char *p = ctype;
	if (!strncmp(p, "const ", 6))
		p += 6;
	bool un = !strncmp(p, "union ", 6);
	if (strncmp(p, "struct ", 7) && !un)
		return;
	p += un ? 6 : 7;
	size_t n = strcspn(p, " *");
	if (strcmp(p + n, " *") && strcmp(p + n, "*"))
		return;
	char name[128];
	snprintf(name, sizeof(name), "%.*s", (int)n, p);
	if (!btf_kernel(sc))
		return;
	Type *rec = btf_find_type(sc, un ? "union" : "struct", name);
	if (!rec || rec->kind != TY_RECORD)
		return;
	int nf;
	const Field *f = type_fields(rec, &nf);
	for (int i = 0; i < nf; i++) {
		char tn[200];
		type_name(f[i].type, tn, sizeof(tn));
		size_t l = strlen(tn);
		if (l && tn[l - 1] == ' ') /* an anonymous struct/union */
			snprintf(tn + l - 1, sizeof(tn) - l + 1, " {...}");
		fprintf(out, "%s+%-5d %s%s%s", indent, f[i].offset, tn, *f[i].name ? " " : "",
			f[i].name);
		if (f[i].bit_width)
			fprintf(out, ":%d", f[i].bit_width);
		fputc('\n', out);
	}
}
