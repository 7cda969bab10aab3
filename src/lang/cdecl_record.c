/* Structs, unions and enums of the C-declaration parser: their bodies and
 * their layout (the x86-64 System V ABI: natural alignment, bitfields
 * packed in units of their declared type; __attribute__((packed))). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdecl_int.h"

static int align_of(Type *t)
{
	switch (t->kind) {
	case TY_INT:
		return type_csize(t) ? type_csize(t) : 1;
	case TY_ARRAY:
		return align_of(t->pointee);
	case TY_RECORD: {
		int n, a = 1;
		const Field *f = type_fields(t, &n);
		for (int i = 0; i < n; i++) {
			int fa = align_of(f[i].type);
			a = fa > a ? fa : a;
		}
		return a;
	}
	default:
		return 1;
	}
}

static int round_up(int v, int a)
{
	return a > 1 ? (v + a - 1) / a * a : v;
}

static Type *tagged_record(CP *p, bool un, const char *name, bool defining)
{
	CNameKind k = un ? CN_UNION : CN_STRUCT;
	CName *n = cd_find_name(p->d, k, name);
	(void)defining;
	if (n)
		return n->type;
	Type *t = type_new(p->d->arena, TY_RECORD, 0);
	t->is_union = un;
	size_t len = strlen(name) + 8;
	char *cn = arena_alloc(p->d->arena, len);
	snprintf(cn, len, "%s %s", un ? "union" : "struct", *name ? name : "(anonymous)");
	t->cname = cn;
	if (*name)
		cd_add_name(p->d, k, name, t, 0);
	return t;
}

static bool parse_members(CP *p, Type *rec)
{
	VEC(Field) fs = {0};
	int bitpos = 0, size = 0, align = 1;
	bool ok = true;
	while (ok && !cd_is(p, "}")) {
		if (p->tk == CT_EOF) {
			ok = cd_err(p, p->tloc, "missing '}' at the end of %s", rec->cname);
			break;
		}
		Loc at = p->tloc;
		Type *base;
		if (!(ok = cd_decl_spec(p, &base)))
			break;
		if (cd_is(p, ";")) {
			/* anonymous struct/union member */
			if (base->kind != TY_RECORD) {
				ok = cd_err(p, at, "a member needs a name");
				break;
			}
			Field f = {"", 0, 0, 0, base};
			int a = align_of(base);
			int off = rec->is_union ? 0 : round_up((bitpos + 7) / 8, a);
			f.offset = off;
			bitpos = rec->is_union ? 0 : (off + base->size) * 8;
			size = off + base->size > size ? off + base->size : size;
			align = a > align ? a : align;
			vec_push(&fs, f);
			ok = cd_next(p);
			continue;
		}
		for (;;) {
			Type *t;
			char *name;
			Loc nloc;
			int bits = -1;
			if (!(ok = cd_declarator(p, base, &t, &name, &nloc, &bits)))
				break;
			if (t->kind == TY_NONE) {
				ok = cd_err(p, nloc, "member '%s' has type void", name);
				break;
			}
			if (t->kind == TY_RECORD && !t->pending && !t->fields && !t->btf_id) {
				/* not defined here: the kernel's, if BTF has it */
				t->pending = true;
				t->sym = p->d->sym;
				if (type_record_size(t) > 0)
					goto known;
				t->pending = false;
				ok = cd_err(p, nloc, "member '%s' has incomplete type %s (it is declared "
					  "but not defined)", name, t->cname);
				break;
			}
		known:
			for (int i = 0; i < fs.n; i++)
				if (*name && !strcmp(fs.v[i].name, name)) {
					ok = cd_err(p, nloc, "duplicate member '%s'", name);
					break;
				}
			if (!ok)
				break;
			int tsize = t->kind == TY_RECORD ? type_record_size(t) : type_csize(t);
			int a = align_of(t);
			Field f = {name, 0, 0, 0, t};
			if (bits >= 0) {
				if (t->kind != TY_INT || t->pointee) {
					ok = cd_err(p, nloc, "bitfield '%s' must have an integer type", name);
					break;
				}
				if (bits > tsize * 8) {
					ok = cd_err(p, nloc, "bitfield '%s' is wider (%d bits) than its type",
						  name, bits);
					break;
				}
				int unit = tsize * 8, bp = rec->is_union ? 0 : bitpos;
				if (bits == 0)
					bp = round_up(bp, unit);
				else if (bp / unit != (bp + bits - 1) / unit)
					bp = round_up(bp, unit);
				f.offset = bp / 8;
				f.bit_off = bp % 8;
				f.bit_width = bits;
				if (!rec->is_union)
					bitpos = bp + bits;
				int end = (bp + bits + 7) / 8;
				size = end > size ? end : size;
			} else {
				int off = rec->is_union ? 0 : round_up((bitpos + 7) / 8, a);
				f.offset = off;
				if (!rec->is_union)
					bitpos = (off + tsize) * 8;
				size = off + tsize > size ? off + tsize : size;
			}
			align = a > align ? a : align;
			if (*name || bits < 0)
				vec_push(&fs, f);
			if (cd_is(p, ",")) {
				if (!(ok = cd_next(p)))
					break;
				continue;
			}
			/* bpftrace (clang) accepts the last member without ';' */
			if (!cd_is(p, "}"))
				ok = cd_expect(p, ";", "';' after a member");
			break;
		}
	}
	if (ok && !fs.n && !p->decls) { /* GNU C's empty struct: in headers (D) only */
		vec_free(&fs);
		return cd_err(p, p->tloc, "%s has no members", rec->cname);
	}
	if (ok) {
		/* never NULL once defined, even empty: "defined" is fields != NULL */
		rec->fields = arena_alloc(p->d->arena, sizeof(Field) * (size_t)(fs.n ? fs.n : 1));
		if (fs.n)
			memcpy(rec->fields, fs.v, sizeof(Field) * (size_t)fs.n);
		rec->nfields = fs.n;
		rec->size = round_up(size, align);
	}
	vec_free(&fs);
	return ok;
}

static bool parse_enum_body(CP *p, Type *t)
{
	int64_t v = 0;
	bool any = false;
	while (!cd_is(p, "}")) {
		if (p->tk != CT_IDENT) {
			char b[48];
			return cd_err(p, p->tloc, "expected an enumerator name, found %s",
				    cd_tokdesc(p, b, sizeof(b)));
		}
		char *name = cd_tokdup(p);
		if (!cd_next(p))
			return false;
		if (cd_is(p, "=") && (!cd_next(p) || !cd_cexpr(p, &v)))
			return false;
		/* D's enums are ints; dtrace names the token after the value */
		if (p->d->d_vars && (v > INT32_MAX || v < INT32_MIN))
			return cd_err(p, p->tloc, "enumerator '%s' value overflows INT_MAX (%d)", name,
				      INT32_MAX);
		cd_add_name(p->d, CN_CONST, name, t, v);
		type_enum_add(p->d->arena, t, name, v);
		any = true;
		v++;
		if (!cd_is(p, ","))
			break;
		if (!cd_next(p))
			return false;
	}
	if (!any)
		return cd_err(p, p->tloc, "an enum needs at least one enumerator");
	return cd_expect(p, "}", "'}' or ',' in an enum");
}

/* __attribute__((packed)): the members one after the other, unaligned */
static void pack_record(Type *rec)
{
	int bitpos = 0, size = 0;
	for (int i = 0; i < rec->nfields; i++) {
		Field *f = &rec->fields[i];
		int tsize = f->type->kind == TY_RECORD ? type_record_size(f->type) : type_csize(f->type);
		int bp = rec->is_union ? 0 : bitpos;
		if (!f->bit_width)
			bp = (bp + 7) / 8 * 8;
		f->offset = bp / 8;
		f->bit_off = f->bit_width ? bp % 8 : 0;
		int end = f->bit_width ? bp + f->bit_width : bp + tsize * 8;
		if (!rec->is_union)
			bitpos = end;
		size = (end + 7) / 8 > size ? (end + 7) / 8 : size;
	}
	rec->size = size;
}

/* struct/union/enum specifier, with or without a body */
bool cd_tagged(CP *p, Type **out)
{
	bool un = cd_is(p, "union"), en = cd_is(p, "enum");
	const char *kw = en ? "enum" : un ? "union" : "struct";
	p->packed = false;
	if (!cd_next(p) || !cd_skip_qualifiers(p, NULL))
		return false;
	bool packed = p->packed;
	char *name = "";
	Loc nloc = p->tloc;
	if (p->tk == CT_IDENT) {
		name = cd_tokdup(p);
		if (!cd_next(p))
			return false;
	}
	bool body = cd_is(p, "{");
	if (!*name && !body)
		return cd_err(p, p->tloc, "expected a name or '{' after '%s'", kw);
	if (en) {
		Type *t = cd_find_name(p->d, CN_ENUM, name) ? cd_find_name(p->d, CN_ENUM, name)->type : NULL;
		if (!t && !body && *name)
			t = btf_find_type(p->d->sym, "enum", name);
		if (!t) {
			t = cd_int_type(p->d->arena, 32, false);
			size_t len = strlen(name) + 24;
			char *cn = arena_alloc(p->d->arena, len);
			snprintf(cn, len, "enum %s", *name ? name : "(anonymous)");
			t->cname = cn;
			if (*name)
				cd_add_name(p->d, CN_ENUM, name, t, 0);
		}
		*out = t;
		if (body && (!cd_next(p) || !parse_enum_body(p, t)))
			return false;
		return true;
	}
	if (body) {
		Type *t = tagged_record(p, un, name, true);
		if (t->fields)
			return cd_err(p, nloc, "%s is defined twice", t->cname);
		if (++p->nest > MAX_NEST)
			return cd_err(p, p->tloc, "structs nested too deeply");
		bool ok = cd_next(p) && parse_members(p, t) && cd_expect(p, "}", "'}'");
		p->nest--;
		p->packed = false;
		ok = ok && cd_skip_qualifiers(p, NULL);
		if (ok && (packed || p->packed))
			pack_record(t);
		*out = t;
		return ok;
	}
	*out = tagged_record(p, un, name, false);
	return true;
}
