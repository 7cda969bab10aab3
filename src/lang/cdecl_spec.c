/* Type specifiers and declarators of the C-declaration parser: the type
 * words before a name ("unsigned long", "struct x", "u32"), the qualifiers
 * and attributes it skips, and the declarator around the name (pointers,
 * arrays, bitfields, function pointers). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdecl_int.h"

Type *cd_int_type(Arena *a, int bits, bool sign)
{
	Type *t = type_new(a, TY_INT, 8);
	t->bits = bits;
	t->is_signed = sign;
	return t;
}

/* sonde's names and the kernel's usual fixed-width names */
bool cd_fixed_int(const char *n, int *bits, bool *sign)
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
bool cd_skip_qualifiers(CP *p, bool *user)
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
	a->pointee = cd_int_type(p->d->arena, 8, false);
	a->count = size;
	return a;
}

/* `double _Complex` (glibc's complex.h): twice the bytes, opaque */
static bool complex_of(CP *p, Type **t)
{
	if (!cd_is(p, "_Complex") && !cd_is(p, "__complex__"))
		return true;
	*t = opaque(p, 2 * (type_csize(*t)));
	return cd_next(p);
}

/* gcc's builtin va_list (x86-64: one 24-byte __va_list_tag) */
static Type *va_list_type(CP *p)
{
	return opaque(p, 24);
}

/* a base type's word after a complete type */
static bool basic_word_follows(const CP *p)
{
	static const char *const words[] = {"void", "char", "short", "int", "long", "float",
					    "double", "signed", "unsigned"};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (cd_is(p, words[i]))
			return true;
	return false;
}

/* The type words before a declarator: "unsigned long", "struct x", "u32". */
bool cd_decl_spec(CP *p, Type **out)
{
	if (!cd_skip_qualifiers(p, NULL))
		return false;
	if (cd_is(p, "struct") || cd_is(p, "union") || cd_is(p, "enum")) {
		if (!cd_tagged(p, out))
			return false;
		return cd_skip_qualifiers(p, NULL);
	}
	int sign = -1, shorts = 0, longs = 0, chars = 0, ints = 0, n = 0;
	Loc at = p->tloc;
	Type *named = NULL;
	for (;; n++) {
		if (!cd_skip_qualifiers(p, NULL))
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
				named = cd_int_type(p->d->arena, cd_is(p, "float") ? 32 : 64, false);
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
			else if (cd_fixed_int(nm, &bits, &sg))
				named = cd_int_type(p->d->arena, bits, sg);
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
	bool clash = chars > 1 || ints > 1 || shorts > 1 || longs > 2 || (shorts && longs) ||
		     (chars && (shorts || longs || ints));
	if (clash || basic_word_follows(p)) /* `double double`, `int char` */
		return cd_err(p, clash ? at : p->tloc, "invalid type combination");
	if (named) {
		*out = named;
		return complex_of(p, out) && cd_skip_qualifiers(p, NULL);
	}
	if (n == 0) {
		char b[48];
		return cd_err(p, at, "expected a type, found %s", cd_tokdesc(p, b, sizeof(b)));
	}
	int bits = chars ? 8 : shorts ? 16 : longs ? 64 : 32;
	*out = cd_int_type(p->d->arena, bits, sign != 0);
	(void)ints;
	return true;
}

/* From an opening bracket past its closing one: a parameter list, a
 * function's body, an initializer. */
bool cd_skip_balanced(CP *p, Loc at, const char *what)
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

Type *cd_ptr_to(CP *p, Type *t, bool user)
{
	Type *q = cd_int_type(p->d->arena, 64, false);
	q->pointee = t;
	q->user = user;
	return q;
}

/* "*const *name[4][2] : 3", "(*fn)(int)", "fn(args)" (a prototype).  *name
 * is "" for an abstract declarator.  bits: -1 unless a bitfield. */
bool cd_declarator(CP *p, Type *base, Type **out, char **name, Loc *nloc, int *bits)
{
	Type *t = base;
	bool user = false;
	while (cd_is(p, "*")) {
		if (!cd_next(p) || !cd_skip_qualifiers(p, &user))
			return false;
		t = cd_ptr_to(p, t, user);
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
		if (!cd_is(p, "(") || !cd_skip_balanced(p, *nloc, "parameter list"))
			return cd_is(p, "(") ? false : cd_expect(p, "(", "'(' of the parameters");
		Type *v = type_new(p->d->arena, TY_NONE, 0);
		v->cname = "void";
		*out = cd_ptr_to(p, v, false);
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
		if (!cd_d_prototype_ok(p) || !cd_skip_balanced(p, at, "parameter list"))
			return false;
		Type *fn = type_new(p->d->arena, TY_NONE, 0);
		fn->cname = "function";
		*out = fn;
		return cd_skip_qualifiers(p, NULL);
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
	if (!cd_skip_qualifiers(p, NULL))
		return false;
	*out = t;
	return true;
}
