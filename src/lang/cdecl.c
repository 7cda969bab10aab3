/* A small C-declaration parser for the definitions a script writes before
 * its probes (and the headers it #includes): structs, unions, enums,
 * typedefs, bitfields, nested and anonymous members, #define NAME value.
 * Layout follows the x86-64 System V ABI (natural alignment; bitfields
 * packed in units of their declared type).  Anything else — function
 * bodies, macros with arguments — is an error with its location. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdecl_int.h"

/* ---- names ---- */

CName *cd_find_name(const CDefs *d, CNameKind k, const char *name)
{
	for (int i = d->names.n - 1; i >= 0; i--)
		if (d->names.v[i].kind == k && !strcmp(d->names.v[i].name, name))
			return &d->names.v[i];
	return NULL;
}

Type *cdefs_find(const CDefs *d, CNameKind kind, const char *name)
{
	if (!d)
		return NULL;
	CName *n = cd_find_name(d, kind, name);
	return n ? n->type : NULL;
}

static bool const_at(const CDefs *d, const char *name, int depth, int64_t *v);

/* A macro's text as a constant expression; depth stops self-reference
 * (glibc's `#define IPPROTO_TCP IPPROTO_TCP` falls through to the enum). */
static bool macro_value(const CDefs *d, const char *text, int depth, int64_t *v)
{
	Error e = {0};
	CP p = {.d = (CDefs *)d, .s = text, .line = 1, .col = 1, .err = &e, .nest = depth};
	if (!cd_next(&p) || p.tk == CT_EOF || !cd_cexpr(&p, v))
		return false;
	return p.tk == CT_EOF;
}

static bool const_at(const CDefs *d, const char *name, int depth, int64_t *v)
{
	for (int i = d ? d->names.n - 1 : -1; i >= 0; i--) {
		const CName *n = &d->names.v[i];
		if (strcmp(n->name, name))
			continue;
		if (n->kind == CN_CONST) {
			*v = n->value;
			return true;
		}
		if (n->kind == CN_MACRO)
			return *n->text && macro_value(d, n->text, depth, v);
	}
	return false;
}

bool cdefs_const(const CDefs *d, const char *name, int64_t *v)
{
	return const_at(d, name, 0, v);
}

bool cdefs_defined(const CDefs *d, const char *name)
{
	return d && (cd_find_name(d, CN_CONST, name) || cd_find_name(d, CN_MACRO, name));
}

void cd_add_name(CDefs *d, CNameKind k, const char *name, Type *t, int64_t v)
{
	CName n = {k, name, t, v, NULL};
	vec_push(&d->names, n);
}

void cd_add_macro(CDefs *d, const char *name, const char *text)
{
	CName n = {CN_MACRO, name, NULL, 0, text};
	vec_push(&d->names, n);
}

static Type *int_type(Arena *a, int bits, bool sign)
{
	Type *t = type_new(a, TY_INT, 8);
	t->bits = bits;
	t->is_signed = sign;
	return t;
}

/* sonde's names and the kernel's usual fixed-width names */
static bool fixed_int(const char *n, int *bits, bool *sign)
{
	static const struct { const char *n; int bits; bool sign; } tab[] = {
		{"int8", 8, 1}, {"int16", 16, 1}, {"int32", 32, 1}, {"int64", 64, 1},
		{"uint8", 8, 0}, {"uint16", 16, 0}, {"uint32", 32, 0}, {"uint64", 64, 0},
		{"uint", 32, 0}, {"s8", 8, 1}, {"s16", 16, 1}, {"s32", 32, 1}, {"s64", 64, 1},
		{"u8", 8, 0}, {"u16", 16, 0}, {"u32", 32, 0}, {"u64", 64, 0},
		{"__s8", 8, 1}, {"__s16", 16, 1}, {"__s32", 32, 1}, {"__s64", 64, 1},
		{"__u8", 8, 0}, {"__u16", 16, 0}, {"__u32", 32, 0}, {"__u64", 64, 0},
		{"int8_t", 8, 1}, {"int16_t", 16, 1}, {"int32_t", 32, 1}, {"int64_t", 64, 1},
		{"uint8_t", 8, 0}, {"uint16_t", 16, 0}, {"uint32_t", 32, 0}, {"uint64_t", 64, 0},
		{"size_t", 64, 0}, {"ssize_t", 64, 1}, {"uintptr_t", 64, 0}, {"pid_t", 32, 1},
		{"uid_t", 32, 0}, {"gid_t", 32, 0}, {"bool", 8, 0}, {"_Bool", 8, 0},
		{"__be16", 16, 0}, {"__be32", 32, 0}, {"__le16", 16, 0}, {"__le32", 32, 0},
		{"__be64", 64, 0}, {"__le64", 64, 0},
		{"ipaddr_t", 32, 0}, /* DTrace's IPv4 address type */
	};
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!strcmp(tab[i].n, n)) {
			*bits = tab[i].bits;
			*sign = tab[i].sign;
			return true;
		}
	return false;
}

/* ---- layout ---- */

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

/* ---- constant expressions ---- */

/* #if: `defined NAME` or `defined(NAME)` */
static bool pp_defined(CP *p, int64_t *v)
{
	if (!cd_next(p))
		return false;
	bool paren = cd_is(p, "(");
	if (paren && !cd_next(p))
		return false;
	if (p->tk != CT_IDENT)
		return cd_err(p, p->tloc, "'defined' needs a macro name");
	char name[128];
	snprintf(name, sizeof(name), "%.*s", p->tl, p->ts);
	*v = cdefs_defined(p->d, name);
	if (!cd_next(p))
		return false;
	return !paren || cd_expect(p, ")", "')'");
}

static bool parse_decl_spec(CP *p, Type **out);
static Type *ptr_to(CP *p, Type *t, bool user);

/* sizeof (TYPE) in an array size: glibc's _SIGSET_NWORDS */
static bool csizeof(CP *p, int64_t *v)
{
	Type *t;
	if (!cd_next(p) || !cd_expect(p, "(", "'(' after sizeof"))
		return false;
	Loc at = p->tloc;
	if (!parse_decl_spec(p, &t))
		return false;
	while (cd_is(p, "*")) {
		t = ptr_to(p, t, false);
		if (!cd_next(p))
			return false;
	}
	int size = t->kind == TY_RECORD ? type_record_size(t) : type_csize(t);
	if (size <= 0)
		return cd_err(p, at, "sizeof of an incomplete type");
	*v = size;
	return cd_expect(p, ")", "')'");
}

/* Does a type name start here (a cast in a constant: `(int) sizeof (x)`)? */
static bool starts_type(const CP *p)
{
	static const char *const kw[] = {"int", "char", "short", "long", "unsigned", "signed",
					 "const", "volatile", "struct", "union", "enum", "void",
					 "_Bool", "__signed__"};
	if (p->tk != CT_IDENT)
		return false;
	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (cd_is(p, kw[i]))
			return true;
	char nm[128];
	int bits;
	bool sg;
	snprintf(nm, sizeof(nm), "%.*s", p->tl, p->ts);
	return cdefs_find(p->d, CN_TYPEDEF, nm) || fixed_int(nm, &bits, &sg);
}

static bool cprimary(CP *p, int64_t *v);

/* (TYPE) operand, the '(' read: the operand's value in the type's width */
static bool ccast(CP *p, int64_t *v)
{
	Type *t;
	if (!parse_decl_spec(p, &t))
		return false;
	bool ptr = false;
	for (; cd_is(p, "*"); ptr = true)
		if (!cd_next(p))
			return false;
	if (!cd_expect(p, ")", "')'") || !cprimary(p, v))
		return false;
	int bits = ptr ? 64 : t->kind == TY_INT ? t->bits : 64;
	if (bits > 0 && bits < 64) {
		uint64_t m = ((uint64_t)1 << bits) - 1, u = (uint64_t)*v & m;
		if (t->is_signed && !ptr && (u >> (bits - 1)))
			u |= ~m;
		*v = (int64_t)u;
	}
	return true;
}

static bool cprimary(CP *p, int64_t *v)
{
	if (p->tk == CT_NUM) {
		*v = (int64_t)p->num;
		return cd_next(p);
	}
	if (cd_is(p, "(")) {
		if (!cd_next(p))
			return false;
		if (!p->pp_if && starts_type(p))
			return ccast(p, v);
		if (!cd_cexpr(p, v))
			return false;
		return cd_expect(p, ")", "')'");
	}
	if (cd_is(p, "-") || cd_is(p, "~") || cd_is(p, "!") || cd_is(p, "+")) {
		char op = *p->ts;
		if (!cd_next(p) || !cprimary(p, v))
			return false;
		*v = op == '-' ? -*v : op == '~' ? ~*v : op == '!' ? !*v : *v;
		return true;
	}
	if (p->tk == CT_IDENT) {
		char name[128];
		snprintf(name, sizeof(name), "%.*s", p->tl, p->ts);
		if (p->pp_if && !strcmp(name, "defined"))
			return pp_defined(p, v);
		if (!p->pp_if && !strcmp(name, "sizeof"))
			return csizeof(p, v);
		if (const_at(p->d, name, p->nest, v) || btf_enum_value(p->d->sym, name, v))
			return cd_next(p);
		if (p->pp_if && cd_ch(p, 0) != '(') {
			*v = 0; /* as in C: a name that is no macro is 0 in #if */
			return cd_next(p);
		}
		return cd_err(p, p->tloc, "'%s' is not a constant (an enum value or #define)", name);
	}
	char b[48];
	return cd_err(p, p->tloc, "expected a constant, found %s", cd_tokdesc(p, b, sizeof(b)));
}

static int cprec(const CP *p)
{
	static const struct { const char *op; int prec; } t[] = {
		{"*", 9}, {"/", 9}, {"%", 9}, {"+", 8}, {"-", 8}, {"<<", 7}, {">>", 7},
		{"<", 6}, {">", 6}, {"<=", 6}, {">=", 6}, {"==", 5}, {"!=", 5},
		{"&", 4}, {"^", 3}, {"|", 2}, {"&&", 1}, {"||", 0},
	};
	if (p->tk != CT_PUNCT)
		return -1;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (cd_is(p, t[i].op))
			return t[i].prec;
	return -1;
}

/* the comparison and logical operators of #if lines */
static bool compare_op(const char *op, int64_t a, int64_t b, int64_t *v)
{
	if (!strcmp(op, "<") || !strcmp(op, ">") || !strcmp(op, "<=") || !strcmp(op, ">="))
		*v = op[0] == '<' ? (op[1] ? a <= b : a < b) : (op[1] ? a >= b : a > b);
	else if (!strcmp(op, "==") || !strcmp(op, "!="))
		*v = op[0] == '=' ? a == b : a != b;
	else if (!strcmp(op, "&&") || !strcmp(op, "||"))
		*v = op[0] == '&' ? (a && b) : (a || b);
	else
		return false;
	return true;
}

static bool cbin(CP *p, int64_t *v, int min)
{
	if (!cprimary(p, v))
		return false;
	for (int pr; (pr = cprec(p)) >= min;) {
		char op[3] = {0};
		memcpy(op, p->ts, (size_t)p->tl);
		Loc at = p->tloc;
		int64_t r;
		if (!cd_next(p) || !cbin(p, &r, pr + 1))
			return false;
		uint64_t a = (uint64_t)*v, b = (uint64_t)r;
		if (compare_op(op, *v, r, v))
			continue;
		switch (op[0]) {
		case '*': *v = (int64_t)(a * b); break;
		case '/':
		case '%':
			if (!r)
				return cd_err(p, at, "division by zero in a constant");
			*v = op[0] == '/' ? *v / r : *v % r;
			break;
		case '+': *v = (int64_t)(a + b); break;
		case '-': *v = (int64_t)(a - b); break;
		case '<': *v = (int64_t)(a << (b & 63)); break;
		case '>': *v = *v >> (b & 63); break;
		case '&': *v = (int64_t)(a & b); break;
		case '^': *v = (int64_t)(a ^ b); break;
		case '|': *v = (int64_t)(a | b); break;
		}
	}
	return true;
}

bool cd_cexpr(CP *p, int64_t *v)
{
	if (++p->nest > MAX_NEST)
		return cd_err(p, p->tloc, "constant nested too deeply");
	bool ok = cbin(p, v, 0);
	if (ok && cd_is(p, "?")) { /* glibc's ctype.h: _ISbit's (bit) < 8 ? ... : ... */
		int64_t a, b;
		ok = cd_next(p) && cd_cexpr(p, &a) && cd_expect(p, ":", "':'") && cd_cexpr(p, &b);
		if (ok)
			*v = *v ? a : b;
	}
	p->nest--;
	return ok;
}

/* ---- declarations ---- */

static bool is_qualifier(const CP *p)
{
	static const char *q[] = {"const", "volatile", "restrict", "__restrict", "static",
				  "extern", "register", "inline", "__user", "__kernel",
				  "__attribute__", "__packed", "__aligned", "__rcu", "__iomem",
				  "__percpu", "__force", "__restrict__", "__const", "__const__",
				  "__volatile", "__volatile__", "__inline", "__inline__",
				  "__extension__", "_Noreturn", "__asm__", "__asm"};
	for (size_t i = 0; i < sizeof(q) / sizeof(q[0]); i++)
		if (cd_is(p, q[i]))
			return true;
	return false;
}

/* __attribute__((...)) and friends: skipped */
static bool skip_qualifiers(CP *p, bool *user)
{
	while (p->tk == CT_IDENT && is_qualifier(p)) {
		if (cd_is(p, "__user") && user)
			*user = true;
		p->packed |= cd_is(p, "__packed");
		bool attr = cd_is(p, "__attribute__") || cd_is(p, "__aligned") || cd_is(p, "__asm__") ||
			    cd_is(p, "__asm");
		if (!cd_next(p))
			return false;
		if (attr && cd_is(p, "(")) {
			int depth = 0;
			do {
				if (p->tk == CT_EOF)
					return cd_err(p, p->tloc, "unterminated __attribute__");
				depth += cd_is(p, "(") - cd_is(p, ")");
				p->packed |= cd_is(p, "packed") || cd_is(p, "__packed__");
				if (!cd_next(p))
					return false;
			} while (depth > 0);
		}
	}
	return true;
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

static bool parse_declarator(CP *p, Type *base, Type **out, char **name, Loc *nloc,
			     int *bits);

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
		if (!(ok = parse_decl_spec(p, &base)))
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
			if (!(ok = parse_declarator(p, base, &t, &name, &nloc, &bits)))
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
static bool parse_tagged(CP *p, Type **out)
{
	bool un = cd_is(p, "union"), en = cd_is(p, "enum");
	const char *kw = en ? "enum" : un ? "union" : "struct";
	p->packed = false;
	if (!cd_next(p) || !skip_qualifiers(p, NULL))
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
			t = int_type(p->d->arena, 32, false);
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
		ok = ok && skip_qualifiers(p, NULL);
		if (ok && (packed || p->packed))
			pack_record(t);
		*out = t;
		return ok;
	}
	*out = tagged_record(p, un, name, false);
	return true;
}

/* long double, and gcc's 128-bit types glibc's headers may name: sixteen
 * bytes a script can size and copy but not compute with */
static bool wide_type(const CP *p, int longs, int n, int sign)
{
	static const char *const w[] = {"__int128", "__float128", "_Float128", "__ieee128",
					"__int128_t", "__uint128_t"};
	if (cd_is(p, "double"))
		return longs == 1 && n == 1;
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (cd_is(p, w[i]))
			return n == 0 || (n == 1 && sign >= 0); /* unsigned __int128 */
	return false;
}

static Type *opaque(CP *p, int size)
{
	Type *a = type_new(p->d->arena, TY_ARRAY, size);
	a->pointee = int_type(p->d->arena, 8, false);
	a->count = size;
	return a;
}

/* `double _Complex` (glibc's complex.h): twice the bytes, opaque */
static bool complex_of(CP *p, Type **t)
{
	if (!cd_is(p, "_Complex") && !cd_is(p, "__complex__"))
		return true;
	*t = opaque(p, 2 * ((*t)->kind == TY_INT ? type_csize(*t) : (*t)->size));
	return cd_next(p);
}

/* gcc's builtin va_list (x86-64: one 24-byte __va_list_tag) */
static Type *va_list_type(CP *p)
{
	return opaque(p, 24);
}

/* The type words before a declarator: "unsigned long", "struct x", "u32". */
static bool parse_decl_spec(CP *p, Type **out)
{
	if (!skip_qualifiers(p, NULL))
		return false;
	if (cd_is(p, "struct") || cd_is(p, "union") || cd_is(p, "enum")) {
		if (!parse_tagged(p, out))
			return false;
		return skip_qualifiers(p, NULL);
	}
	int sign = -1, shorts = 0, longs = 0, chars = 0, ints = 0, n = 0;
	Loc at = p->tloc;
	Type *named = NULL;
	for (;; n++) {
		if (!skip_qualifiers(p, NULL))
			return false;
		if (cd_is(p, "signed") || cd_is(p, "__signed__"))
			sign = 1;
		else if (cd_is(p, "unsigned"))
			sign = 0;
		else if (cd_is(p, "short"))
			shorts++;
		else if (cd_is(p, "long"))
			longs++;
		else if (cd_is(p, "char"))
			chars++;
		else if (cd_is(p, "int"))
			ints++;
		else if (wide_type(p, longs, n, sign))
			named = opaque(p, 16);
		else if (n == 0 && (cd_is(p, "void") || cd_is(p, "float") || cd_is(p, "double"))) {
			if (cd_is(p, "void")) {
				named = type_new(p->d->arena, TY_NONE, 0);
				named->cname = "void";
			} else {
				/* named, so D's printf knows one (%f) and messages say it */
				named = int_type(p->d->arena, cd_is(p, "float") ? 32 : 64, false);
				named->cname = cd_is(p, "float") ? "float" : "double";
			}
		} else if (n == 0 && p->tk == CT_IDENT) {
			char nm[128];
			snprintf(nm, sizeof(nm), "%.*s", p->tl, p->ts);
			int bits;
			bool sg;
			Type *td = cdefs_find(p->d, CN_TYPEDEF, nm);
			if (td)
				named = td;
			else if (fixed_int(nm, &bits, &sg))
				named = int_type(p->d->arena, bits, sg);
			else if (!strcmp(nm, "__builtin_va_list"))
				named = va_list_type(p);
			else if ((td = btf_find_type(p->d->sym, NULL, nm)))
				named = td;
			else
				return cd_err(p, p->tloc, "unknown type '%s'", nm);
		} else {
			break;
		}
		if (!cd_next(p))
			return false;
		if (named)
			break;
	}
	if (named) {
		*out = named;
		return complex_of(p, out) && skip_qualifiers(p, NULL);
	}
	if (n == 0) {
		char b[48];
		return cd_err(p, at, "expected a type, found %s", cd_tokdesc(p, b, sizeof(b)));
	}
	int bits = chars ? 8 : shorts ? 16 : longs ? 64 : 32;
	*out = int_type(p->d->arena, bits, sign != 0);
	(void)ints;
	return true;
}

/* From an opening bracket past its closing one: a parameter list, a
 * function's body, an initializer. */
static bool skip_balanced(CP *p, Loc at, const char *what)
{
	int depth = 0, braces = 0;
	do {
		if (p->tk == CT_EOF)
			return cd_err(p, at, "unterminated %s", what);
		if (cd_is(p, ";") && !braces) /* only a body holds ';' */
			return cd_err(p, p->tloc, "expected ')' before ';'");
		depth += (cd_is(p, "(") || cd_is(p, "{") || cd_is(p, "[")) -
			 (cd_is(p, ")") || cd_is(p, "}") || cd_is(p, "]"));
		braces += cd_is(p, "{") - cd_is(p, "}");
		if (!cd_next(p))
			return false;
	} while (depth > 0);
	return true;
}

static Type *ptr_to(CP *p, Type *t, bool user)
{
	Type *q = int_type(p->d->arena, 64, false);
	q->pointee = t;
	q->user = user;
	return q;
}

/* "*const *name[4][2] : 3", "(*fn)(int)", "fn(args)" (a prototype).  *name
 * is "" for an abstract declarator.  bits: -1 unless a bitfield. */
static bool parse_declarator(CP *p, Type *base, Type **out, char **name, Loc *nloc,
			     int *bits)
{
	Type *t = base;
	bool user = false;
	while (cd_is(p, "*")) {
		if (!cd_next(p) || !skip_qualifiers(p, &user))
			return false;
		t = ptr_to(p, t, user);
		user = false;
	}
	*name = "";
	*nloc = p->tloc;
	if (cd_is(p, "(")) {
		/* function pointer: (*name)(...) */
		if (!cd_next(p) || !cd_expect(p, "*", "'*' of a function pointer"))
			return false;
		*nloc = p->tloc;
		if (p->tk == CT_IDENT) {
			*name = cd_tokdup(p);
			if (!cd_next(p))
				return false;
		}
		if (!cd_expect(p, ")", "')'"))
			return false;
		if (!cd_is(p, "(") || !skip_balanced(p, *nloc, "parameter list"))
			return cd_is(p, "(") ? false : cd_expect(p, "(", "'(' of the parameters");
		Type *v = type_new(p->d->arena, TY_NONE, 0);
		v->cname = "void";
		*out = ptr_to(p, v, false);
		return true;
	}
	if (p->tk == CT_IDENT) {
		*name = cd_tokdup(p);
		*nloc = p->tloc;
		if (!cd_next(p))
			return false;
	}
	if (cd_is(p, "(")) {
		/* a function: D takes a prototype as an extern declaration */
		if (!p->decls)
			return cd_err(p, *nloc, "function declarations are not supported in C definitions "
				    "(only structs, unions, enums, typedefs and #define constants)");
		Loc at = p->tloc;
		if (!skip_balanced(p, at, "parameter list"))
			return false;
		Type *fn = type_new(p->d->arena, TY_NONE, 0);
		fn->cname = "function";
		*out = fn;
		return skip_qualifiers(p, NULL);
	}
	/* arrays: the first [] is the outermost */
	int dims[8], nd = 0;
	while (cd_is(p, "[")) {
		Loc at = p->tloc;
		int64_t n = 0;
		if (!cd_next(p))
			return false;
		if (!cd_is(p, "]") && !cd_cexpr(p, &n))
			return false;
		if (n < 0 || n > (1 << 24))
			return cd_err(p, at, "array size %lld is out of range", (long long)n);
		if (nd == 8)
			return cd_err(p, at, "too many array dimensions");
		dims[nd++] = (int)n;
		if (!cd_expect(p, "]", "']'"))
			return false;
	}
	for (int i = nd - 1; i >= 0; i--) {
		int esz = t->kind == TY_RECORD ? type_record_size(t) : type_csize(t);
		if (t->kind == TY_NONE)
			return cd_err(p, *nloc, "array of void");
		/* char[N] is a string; unsigned char[N] an array, as in bpftrace */
		if (t->kind == TY_INT && !t->pointee && t->bits == 8 && t->is_signed && !t->cname &&
		    dims[i]) {
			t = type_new(p->d->arena, TY_STR, dims[i]);
			continue;
		}
		Type *a = type_new(p->d->arena, TY_ARRAY, esz * dims[i]);
		a->pointee = t;
		a->count = dims[i];
		t = a;
	}
	if (cd_is(p, ":")) {
		Loc at = p->tloc;
		int64_t b;
		if (!cd_next(p) || !cd_cexpr(p, &b))
			return false;
		if (b < 0 || b > 64)
			return cd_err(p, at, "bitfield width %lld is out of range", (long long)b);
		*bits = (int)b;
	}
	if (!skip_qualifiers(p, NULL))
		return false;
	*out = t;
	return true;
}

/* ---- top level ---- */

static bool starts_def(const CP *p)
{
	return cd_is(p, "struct") || cd_is(p, "union") || cd_is(p, "enum") || cd_is(p, "typedef");
}

/* After a struct body in the script: is the next identifier a declarator
 * ("} x;") or the first probe ("}\nBEGIN {")? */
static bool declarator_follows(const CP *p)
{
	if (cd_is(p, "*"))
		return true;
	if (p->tk != CT_IDENT)
		return false;
	size_t i = p->pos;
	while (p->s[i] == ' ' || p->s[i] == '\t')
		i++;
	return p->s[i] == ';' || p->s[i] == ',' || p->s[i] == '[' || p->s[i] == '=';
}

/* D's declarations: the storage class before the type (extern, or one D
 * refuses for a variable: *bad), and C11's _Static_assert, which says nothing
 * D needs */
static bool storage_class(CP *p, bool *bad, bool *skip)
{
	static const char *const words[] = {"extern", "static", "register", "auto", "inline",
					    "__inline", "__inline__", "__extension__", "_Noreturn"};
	for (;;) {
		size_t i = 0;
		while (i < sizeof(words) / sizeof(words[0]) && !cd_is(p, words[i]))
			i++;
		if (i == sizeof(words) / sizeof(words[0]))
			break;
		*bad |= i >= 1 && i <= 3;
		if (!cd_next(p))
			return false;
	}
	if (!cd_is(p, "_Static_assert"))
		return true;
	Loc at = p->tloc;
	*skip = true;
	return cd_next(p) && skip_balanced(p, at, "_Static_assert") && cd_expect(p, ";", "';'");
}

/* one declarator of a D declaration that is no typedef: a function (its
 * prototype, or its body skipped: D has no functions) or an extern
 * variable; *done after a body */
static bool d_declarator(CP *p, const Type *t, bool bad, Loc at, bool *done)
{
	bool fn = t->kind == TY_NONE && t->cname && !strcmp(t->cname, "function");
	if (fn && cd_is(p, "{")) {
		*done = true;
		return skip_balanced(p, p->tloc, "function body");
	}
	if (bad && !fn)
		return cd_err(p, at, "specified storage class not appropriate in D");
	return true;
}

static bool declaration(CP *p)
{
	bool bad = false, skip = false;
	Loc at = p->tloc;
	if (p->decls && !storage_class(p, &bad, &skip))
		return false;
	if (skip)
		return true;
	bool td = cd_is(p, "typedef");
	if (td && !cd_next(p))
		return false;
	bool tagged = cd_is(p, "struct") || cd_is(p, "union") || cd_is(p, "enum");
	Type *base;
	if (!parse_decl_spec(p, &base))
		return false;
	if (cd_is(p, ";")) {
		if (p->decls && !tagged)
			return cd_err(p, at, "useless declaration");
		return cd_next(p);
	}
	if (cd_is(p, "{"))
		return cd_err(p, p->tloc, "unexpected '{': a function body? only type definitions "
			    "are supported");
	if (!td && tagged && p->script && !declarator_follows(p))
		return true; /* "struct Foo { ... }" without ';', as bpftrace allows */
	if (!td && p->script && p->d->d_vars) { /* a D variable: to its ';' */
		while (p->tk != CT_EOF && !cd_is(p, ";"))
			if (!cd_next(p))
				return false;
		return p->tk == CT_EOF || cd_next(p);
	}
	for (;;) {
		Type *t;
		char *name;
		Loc nloc;
		int bits = -1;
		if (!parse_declarator(p, base, &t, &name, &nloc, &bits))
			return false;
		bool done = false;
		if (p->decls && !td && !d_declarator(p, t, bad, at, &done))
			return false;
		if (done)
			return true;
		if (cd_is(p, "{"))
			return cd_err(p, p->tloc, "function bodies are not supported in C definitions");
		if (bits >= 0)
			return cd_err(p, nloc, "a bitfield outside of a struct");
		if (td) {
			if (!*name)
				return cd_err(p, nloc, "a typedef needs a name");
			cd_add_name(p->d, CN_TYPEDEF, name, t, 0);
		} else if (p->script && !p->decls) {
			return cd_err(p, at, "only type definitions are supported before the probes "
				    "(struct, union, enum, typedef, #define, #include)");
		}
		if (cd_is(p, "=")) /* an initialized variable in a header: skipped */
			return cd_err(p, p->tloc, "variable definitions are not supported in C "
				    "definitions");
		if (!cd_is(p, ","))
			break;
		if (!cd_next(p))
			return false;
	}
	return cd_expect(p, ";", "';'");
}

static bool parse_all(CP *p)
{
	CDefs *d = p->d;
	if (!cd_next(p))
		return false;
	while (p->tk != CT_EOF) {
		if (p->tk == CT_HASH) {
			if (!cd_directive(p) || !cd_next(p))
				return false;
			continue;
		}
		if (p->script && !starts_def(p))
			break; /* the first probe */
		if (!declaration(p))
			return false;
	}
	if (!cd_pp_end(p))
		return false;
	/* records only named (struct x *p) and never defined here: the kernel's */
	for (int i = 0; i < d->names.n; i++) {
		Type *t = d->names.v[i].type;
		if (t && t->kind == TY_RECORD && !t->fields && !t->pending && !t->btf_id) {
			t->pending = true;
			t->sym = d->sym;
		}
	}
	return true;
}

bool cdefs_parse(CDefs *d, const char *text, Loc at, const char *file, Loc inc, Error *err)
{
	CP p = {.d = d, .s = text, .line = at.line ? at.line : 1, .col = at.col ? at.col : 1,
		.script = file == NULL, .file = file, .inc = inc, .err = err};
	return parse_all(&p);
}

bool cdefs_parse_decls(CDefs *d, const char *text, Error *err)
{
	CP p = {.d = d, .s = text, .line = 1, .col = 1, .decls = true, .err = err};
	return parse_all(&p);
}

/* ---- type names of casts and sizeof ---- */

Type *ctype_parse_name(const CDefs *d, Arena *a, const char *text, char *err, size_t errlen)
{
	CDefs tmp = {0};
	CDefs *dd = d ? (CDefs *)d : &tmp;
	Arena *saved = dd->arena;
	dd->arena = a;
	int saved_n = dd->names.n;
	Error e = {0};
	CP p = {.d = dd, .s = text, .line = 1, .col = 1, .err = &e};
	Type *t = NULL;
	bool ok = cd_next(&p);
	bool tagged = ok && (cd_is(&p, "struct") || cd_is(&p, "union") || cd_is(&p, "enum"));
	if (ok && tagged) {
		bool un = cd_is(&p, "union"), en = cd_is(&p, "enum");
		ok = cd_next(&p);
		char nm[128];
		snprintf(nm, sizeof(nm), "%.*s", p.tl, p.ts);
		if (ok) {
			t = cdefs_find(dd, en ? CN_ENUM : un ? CN_UNION : CN_STRUCT, nm);
			if (!t)
				t = btf_find_type(dd->sym, en ? "enum" : un ? "union" : "struct", nm);
			if (!t) {
				if (btf_error(dd->sym) && !btf_kernel(dd->sym))
					snprintf(err, errlen, "unknown type '%s %s' (%s)",
						 en ? "enum" : un ? "union" : "struct", nm, btf_error(dd->sym));
				else
					snprintf(err, errlen, "unknown type '%s %s': it is not defined "
						 "in the script nor in the kernel's BTF",
						 en ? "enum" : un ? "union" : "struct", nm);
				ok = false;
			} else {
				ok = cd_next(&p);
			}
		}
	} else if (ok) {
		ok = parse_decl_spec(&p, &t);
		if (!ok)
			snprintf(err, errlen, "%s", e.msg);
	}
	while (ok && cd_is(&p, "*")) {
		t = ptr_to(&p, t, false);
		ok = cd_next(&p);
	}
	if (ok && p.tk != CT_EOF) {
		snprintf(err, errlen, "cannot parse the type '%s'", text);
		ok = false;
	}
	dd->names.n = saved_n;
	dd->arena = saved;
	if (dd == &tmp) {
		vec_free(&tmp.names);
		vec_free(&tmp.sys_seen);
	}
	return ok ? t : NULL;
}
