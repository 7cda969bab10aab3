/* A small C-declaration parser for the definitions a script writes before
 * its probes (and the headers it #includes): structs, unions, enums,
 * typedefs, bitfields, nested and anonymous members, #define NAME value.
 * Layout follows the x86-64 System V ABI (natural alignment; bitfields
 * packed in units of their declared type).  Anything else — function
 * bodies, macros with arguments — is an error with its location. */
#include <ctype.h>
#include <stdarg.h>
#include <unistd.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctypes.h"

#define MAX_NEST 32

typedef enum CTok { CT_EOF, CT_IDENT, CT_NUM, CT_PUNCT, CT_STR, CT_HASH } CTok;

typedef struct CP {
	CDefs *d;
	const char *s;
	size_t pos;
	int line, col;
	bool script;       /* stop at the first probe */
	const char *file;  /* NULL: the script */
	Loc inc;           /* the #include line (file != NULL) */
	Error *err;
	/* current token */
	CTok tk;
	const char *ts;
	int tl;
	Loc tloc;
	uint64_t num;
	int nest;
	bool bol;          /* token is the first on its line */
} CP;

/* ---- errors ---- */

static bool cerr(CP *p, Loc at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool cerr(CP *p, Loc at, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p->file)
		return error_at(p->err, p->inc, "%s:%d:%d: %s", p->file, at.line, at.col, msg);
	return error_at(p->err, at, "%s", msg);
}

/* ---- lexing ---- */

static char ch(CP *p, int k)
{
	for (int i = 0; i < k; i++)
		if (!p->s[p->pos + (size_t)i])
			return 0;
	return p->s[p->pos + (size_t)k];
}

static void adv(CP *p, int n)
{
	for (int i = 0; i < n && p->s[p->pos]; i++) {
		if (p->s[p->pos] == '\n') {
			p->line++;
			p->col = 1;
			p->bol = true;
		} else {
			p->col++;
		}
		p->pos++;
	}
}

static bool skip_space(CP *p)
{
	for (;;) {
		char c = ch(p, 0);
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
			adv(p, 1);
		} else if (c == '\\' && ch(p, 1) == '\n') {
			adv(p, 2);
		} else if (c == '/' && ch(p, 1) == '/') {
			while (ch(p, 0) && ch(p, 0) != '\n')
				adv(p, 1);
		} else if (c == '/' && ch(p, 1) == '*') {
			Loc at = {p->line, p->col, 2};
			adv(p, 2);
			while (ch(p, 0) && !(ch(p, 0) == '*' && ch(p, 1) == '/'))
				adv(p, 1);
			if (!ch(p, 0))
				return cerr(p, at, "unterminated comment");
			adv(p, 2);
		} else {
			return true;
		}
	}
}

static bool next(CP *p)
{
	p->bol = false;
	if (!skip_space(p))
		return false;
	p->ts = p->s + p->pos;
	p->tloc = (Loc){p->line, p->col, 1};
	char c = ch(p, 0);
	if (!c) {
		p->tk = CT_EOF;
		p->tl = 0;
		return true;
	}
	if (isalpha((unsigned char)c) || c == '_') {
		int n = 0;
		while (isalnum((unsigned char)ch(p, n)) || ch(p, n) == '_')
			n++;
		p->tk = CT_IDENT;
		p->tl = n;
	} else if (isdigit((unsigned char)c)) {
		char *end;
		errno = 0;
		p->num = strtoull(p->ts, &end, 0);
		int n = (int)(end - p->ts);
		while (ch(p, n) == 'u' || ch(p, n) == 'U' || ch(p, n) == 'l' || ch(p, n) == 'L')
			n++;
		if (isalnum((unsigned char)ch(p, n)) || errno)
			return cerr(p, p->tloc, "bad number");
		p->tk = CT_NUM;
		p->tl = n;
	} else if (c == '"' || c == '<') {
		/* only meaningful after #include; elsewhere '<' is an operator */
		p->tk = CT_PUNCT;
		p->tl = (c == '<' && ch(p, 1) == '<') ? 2 : 1;
		if (c == '"') {
			int n = 1;
			while (ch(p, n) && ch(p, n) != '"' && ch(p, n) != '\n')
				n++;
			if (ch(p, n) != '"')
				return cerr(p, p->tloc, "unterminated string");
			p->tk = CT_STR;
			p->tl = n + 1;
		}
	} else if (c == '#') {
		p->tk = CT_HASH;
		p->tl = 1;
	} else if ((c == '>' && ch(p, 1) == '>') || (c == '.' && ch(p, 1) == '.')) {
		p->tk = CT_PUNCT;
		p->tl = c == '.' && ch(p, 2) == '.' ? 3 : 2;
	} else if (strchr("{}[]();,*:=-+~!|&^/%>.?", c)) {
		p->tk = CT_PUNCT;
		p->tl = 1;
	} else {
		return cerr(p, p->tloc, "unexpected character '%c' in a C definition", c);
	}
	p->tloc.len = p->tl;
	adv(p, p->tl);
	return true;
}

static bool is(const CP *p, const char *w)
{
	return (p->tk == CT_IDENT || p->tk == CT_PUNCT) && (int)strlen(w) == p->tl &&
	       !strncmp(p->ts, w, (size_t)p->tl);
}

static const char *tokdesc(const CP *p, char *buf, size_t n)
{
	if (p->tk == CT_EOF)
		return "end of input";
	snprintf(buf, n, "'%.*s'", p->tl > 30 ? 30 : p->tl, p->ts);
	return buf;
}

static bool expect(CP *p, const char *w, const char *what)
{
	if (!is(p, w)) {
		char b[48];
		return cerr(p, p->tloc, "expected %s, found %s", what, tokdesc(p, b, sizeof(b)));
	}
	return next(p);
}

static char *tokdup(CP *p)
{
	return arena_strndup(p->d->arena, p->ts, (size_t)p->tl);
}

/* ---- names ---- */

static CName *find_name(const CDefs *d, CNameKind k, const char *name)
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
	CName *n = find_name(d, kind, name);
	return n ? n->type : NULL;
}

bool cdefs_const(const CDefs *d, const char *name, int64_t *v)
{
	CName *n = d ? find_name(d, CN_CONST, name) : NULL;
	if (n)
		*v = n->value;
	return n != NULL;
}

static void add_name(CDefs *d, CNameKind k, const char *name, Type *t, int64_t v)
{
	CName n = {k, name, t, v};
	vec_push(&d->names, n);
}

static Type *new_type(Arena *a, TypeKind k, int size)
{
	Type *t = arena_alloc(a, sizeof(Type));
	t->kind = k;
	t->size = size;
	return t;
}

static Type *int_type(Arena *a, int bits, bool sign)
{
	Type *t = new_type(a, TY_INT, 8);
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

static bool cexpr(CP *p, int64_t *v);

static bool cprimary(CP *p, int64_t *v)
{
	if (p->tk == CT_NUM) {
		*v = (int64_t)p->num;
		return next(p);
	}
	if (is(p, "(")) {
		if (!next(p) || !cexpr(p, v))
			return false;
		return expect(p, ")", "')'");
	}
	if (is(p, "-") || is(p, "~") || is(p, "!") || is(p, "+")) {
		char op = *p->ts;
		if (!next(p) || !cprimary(p, v))
			return false;
		*v = op == '-' ? -*v : op == '~' ? ~*v : op == '!' ? !*v : *v;
		return true;
	}
	if (p->tk == CT_IDENT) {
		char name[128];
		snprintf(name, sizeof(name), "%.*s", p->tl, p->ts);
		if (cdefs_const(p->d, name, v) || btf_enum_value(name, v))
			return next(p);
		return cerr(p, p->tloc, "'%s' is not a constant (an enum value or #define)", name);
	}
	char b[48];
	return cerr(p, p->tloc, "expected a constant, found %s", tokdesc(p, b, sizeof(b)));
}

static int cprec(const CP *p)
{
	static const struct { const char *op; int prec; } t[] = {
		{"*", 5}, {"/", 5}, {"%", 5}, {"+", 4}, {"-", 4}, {"<<", 3}, {">>", 3},
		{"&", 2}, {"^", 1}, {"|", 0},
	};
	if (p->tk != CT_PUNCT)
		return -1;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (is(p, t[i].op))
			return t[i].prec;
	return -1;
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
		if (!next(p) || !cbin(p, &r, pr + 1))
			return false;
		uint64_t a = (uint64_t)*v, b = (uint64_t)r;
		switch (op[0]) {
		case '*': *v = (int64_t)(a * b); break;
		case '/':
		case '%':
			if (!r)
				return cerr(p, at, "division by zero in a constant");
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

static bool cexpr(CP *p, int64_t *v)
{
	if (++p->nest > MAX_NEST)
		return cerr(p, p->tloc, "constant nested too deeply");
	bool ok = cbin(p, v, 0);
	p->nest--;
	return ok;
}

/* ---- declarations ---- */

static bool parse_spec(CP *p, Type **out);

static bool is_qualifier(const CP *p)
{
	static const char *q[] = {"const", "volatile", "restrict", "__restrict", "static",
				  "extern", "register", "inline", "__user", "__kernel",
				  "__attribute__", "__packed", "__aligned", "__rcu", "__iomem",
				  "__percpu", "__force"};
	for (size_t i = 0; i < sizeof(q) / sizeof(q[0]); i++)
		if (is(p, q[i]))
			return true;
	return false;
}

/* __attribute__((...)) and friends: skipped */
static bool skip_qualifiers(CP *p, bool *user)
{
	while (p->tk == CT_IDENT && is_qualifier(p)) {
		if (is(p, "__user") && user)
			*user = true;
		bool attr = is(p, "__attribute__") || is(p, "__aligned");
		if (!next(p))
			return false;
		if (attr && is(p, "(")) {
			int depth = 0;
			do {
				if (p->tk == CT_EOF)
					return cerr(p, p->tloc, "unterminated __attribute__");
				depth += is(p, "(") - is(p, ")");
				if (!next(p))
					return false;
			} while (depth > 0);
		}
	}
	return true;
}

static Type *tagged_record(CP *p, bool un, const char *name, bool defining)
{
	CNameKind k = un ? CN_UNION : CN_STRUCT;
	CName *n = find_name(p->d, k, name);
	(void)defining;
	if (n)
		return n->type;
	Type *t = new_type(p->d->arena, TY_RECORD, 0);
	t->is_union = un;
	size_t len = strlen(name) + 8;
	char *cn = arena_alloc(p->d->arena, len);
	snprintf(cn, len, "%s %s", un ? "union" : "struct", *name ? name : "(anonymous)");
	t->cname = cn;
	if (*name)
		add_name(p->d, k, name, t, 0);
	return t;
}

static bool parse_declarator(CP *p, Type *base, Type **out, char **name, Loc *nloc,
			     int *bits);

static bool parse_members(CP *p, Type *rec)
{
	VEC(Field) fs = {0};
	int bitpos = 0, size = 0, align = 1;
	bool ok = true;
	while (ok && !is(p, "}")) {
		if (p->tk == CT_EOF) {
			ok = cerr(p, p->tloc, "missing '}' at the end of %s", rec->cname);
			break;
		}
		Loc at = p->tloc;
		Type *base;
		if (!(ok = parse_spec(p, &base)))
			break;
		if (is(p, ";")) {
			/* anonymous struct/union member */
			if (base->kind != TY_RECORD) {
				ok = cerr(p, at, "a member needs a name");
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
			ok = next(p);
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
				ok = cerr(p, nloc, "member '%s' has type void", name);
				break;
			}
			if (t->kind == TY_RECORD && !t->pending && !t->nfields && !t->btf_id) {
				/* not defined here: the kernel's, if BTF has it */
				t->pending = true;
				if (type_record_size(t) > 0)
					goto known;
				t->pending = false;
				ok = cerr(p, nloc, "member '%s' has incomplete type %s (it is declared "
					  "but not defined)", name, t->cname);
				break;
			}
		known:
			for (int i = 0; i < fs.n; i++)
				if (*name && !strcmp(fs.v[i].name, name)) {
					ok = cerr(p, nloc, "duplicate member '%s'", name);
					break;
				}
			if (!ok)
				break;
			int tsize = t->kind == TY_RECORD ? type_record_size(t) : type_csize(t);
			int a = align_of(t);
			Field f = {name, 0, 0, 0, t};
			if (bits >= 0) {
				if (t->kind != TY_INT || t->pointee) {
					ok = cerr(p, nloc, "bitfield '%s' must have an integer type", name);
					break;
				}
				if (bits > tsize * 8) {
					ok = cerr(p, nloc, "bitfield '%s' is wider (%d bits) than its type",
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
			if (is(p, ",")) {
				if (!(ok = next(p)))
					break;
				continue;
			}
			ok = expect(p, ";", "';' after a member");
			break;
		}
	}
	if (ok && !fs.n) {
		vec_free(&fs);
		return cerr(p, p->tloc, "%s has no members", rec->cname);
	}
	if (ok) {
		rec->fields = arena_alloc(p->d->arena, sizeof(Field) * (size_t)fs.n);
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
	while (!is(p, "}")) {
		if (p->tk != CT_IDENT) {
			char b[48];
			return cerr(p, p->tloc, "expected an enumerator name, found %s",
				    tokdesc(p, b, sizeof(b)));
		}
		char *name = tokdup(p);
		if (!next(p))
			return false;
		if (is(p, "=") && (!next(p) || !cexpr(p, &v)))
			return false;
		add_name(p->d, CN_CONST, name, NULL, v);
		any = true;
		v++;
		if (!is(p, ","))
			break;
		if (!next(p))
			return false;
	}
	(void)t;
	if (!any)
		return cerr(p, p->tloc, "an enum needs at least one enumerator");
	return expect(p, "}", "'}' or ',' in an enum");
}

/* struct/union/enum specifier, with or without a body */
static bool parse_tagged(CP *p, Type **out)
{
	bool un = is(p, "union"), en = is(p, "enum");
	const char *kw = en ? "enum" : un ? "union" : "struct";
	if (!next(p) || !skip_qualifiers(p, NULL))
		return false;
	char *name = "";
	Loc nloc = p->tloc;
	if (p->tk == CT_IDENT) {
		name = tokdup(p);
		if (!next(p))
			return false;
	}
	bool body = is(p, "{");
	if (!*name && !body)
		return cerr(p, p->tloc, "expected a name or '{' after '%s'", kw);
	if (en) {
		Type *t = find_name(p->d, CN_ENUM, name) ? find_name(p->d, CN_ENUM, name)->type : NULL;
		if (!t && !body && *name)
			t = btf_find_type("enum", name);
		if (!t) {
			t = int_type(p->d->arena, 32, false);
			size_t len = strlen(name) + 24;
			char *cn = arena_alloc(p->d->arena, len);
			snprintf(cn, len, "enum %s", *name ? name : "(anonymous)");
			t->cname = cn;
			if (*name)
				add_name(p->d, CN_ENUM, name, t, 0);
		}
		*out = t;
		if (body && (!next(p) || !parse_enum_body(p, t)))
			return false;
		return true;
	}
	if (body) {
		Type *t = tagged_record(p, un, name, true);
		if (t->nfields)
			return cerr(p, nloc, "%s is defined twice", t->cname);
		if (++p->nest > MAX_NEST)
			return cerr(p, p->tloc, "structs nested too deeply");
		bool ok = next(p) && parse_members(p, t) && expect(p, "}", "'}'");
		p->nest--;
		*out = t;
		return ok;
	}
	*out = tagged_record(p, un, name, false);
	return true;
}

/* The type words before a declarator: "unsigned long", "struct x", "u32". */
static bool parse_spec(CP *p, Type **out)
{
	if (!skip_qualifiers(p, NULL))
		return false;
	if (is(p, "struct") || is(p, "union") || is(p, "enum")) {
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
		if (is(p, "signed") || is(p, "__signed__"))
			sign = 1;
		else if (is(p, "unsigned"))
			sign = 0;
		else if (is(p, "short"))
			shorts++;
		else if (is(p, "long"))
			longs++;
		else if (is(p, "char"))
			chars++;
		else if (is(p, "int"))
			ints++;
		else if (n == 0 && (is(p, "void") || is(p, "float") || is(p, "double"))) {
			if (is(p, "void")) {
				named = new_type(p->d->arena, TY_NONE, 0);
				named->cname = "void";
			} else {
				named = int_type(p->d->arena, is(p, "float") ? 32 : 64, false);
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
			else if ((td = btf_find_type(NULL, nm)))
				named = td;
			else
				return cerr(p, p->tloc, "unknown type '%s'", nm);
		} else {
			break;
		}
		if (!next(p))
			return false;
		if (named)
			break;
	}
	if (named) {
		*out = named;
		return skip_qualifiers(p, NULL);
	}
	if (n == 0) {
		char b[48];
		return cerr(p, at, "expected a type, found %s", tokdesc(p, b, sizeof(b)));
	}
	int bits = chars ? 8 : shorts ? 16 : longs ? 64 : 32;
	*out = int_type(p->d->arena, bits, sign != 0);
	(void)ints;
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
	while (is(p, "*")) {
		if (!next(p) || !skip_qualifiers(p, &user))
			return false;
		t = ptr_to(p, t, user);
		user = false;
	}
	*name = "";
	*nloc = p->tloc;
	if (is(p, "(")) {
		/* function pointer: (*name)(...) */
		if (!next(p) || !expect(p, "*", "'*' of a function pointer"))
			return false;
		*nloc = p->tloc;
		if (p->tk == CT_IDENT) {
			*name = tokdup(p);
			if (!next(p))
				return false;
		}
		if (!expect(p, ")", "')'") || !expect(p, "(", "'(' of the parameters"))
			return false;
		for (int depth = 1; depth > 0;) {
			if (p->tk == CT_EOF)
				return cerr(p, *nloc, "unterminated parameter list");
			depth += is(p, "(") - is(p, ")");
			if (!next(p))
				return false;
		}
		Type *v = new_type(p->d->arena, TY_NONE, 0);
		v->cname = "void";
		*out = ptr_to(p, v, false);
		return true;
	}
	if (p->tk == CT_IDENT) {
		*name = tokdup(p);
		*nloc = p->tloc;
		if (!next(p))
			return false;
	}
	if (is(p, "(")) {
		/* a function: a prototype is skipped by the caller; a body is not C
		 * this parser handles */
		return cerr(p, *nloc, "function declarations are not supported in C definitions "
			    "(only structs, unions, enums, typedefs and #define constants)");
	}
	/* arrays: the first [] is the outermost */
	int dims[8], nd = 0;
	while (is(p, "[")) {
		Loc at = p->tloc;
		int64_t n = 0;
		if (!next(p))
			return false;
		if (!is(p, "]") && !cexpr(p, &n))
			return false;
		if (n < 0 || n > (1 << 24))
			return cerr(p, at, "array size %lld is out of range", (long long)n);
		if (nd == 8)
			return cerr(p, at, "too many array dimensions");
		dims[nd++] = (int)n;
		if (!expect(p, "]", "']'"))
			return false;
	}
	for (int i = nd - 1; i >= 0; i--) {
		int esz = t->kind == TY_RECORD ? type_record_size(t) : type_csize(t);
		if (t->kind == TY_NONE)
			return cerr(p, *nloc, "array of void");
		if (t->kind == TY_INT && !t->pointee && t->bits == 8 && !t->cname && dims[i]) {
			t = new_type(p->d->arena, TY_STR, dims[i]);
			continue;
		}
		Type *a = new_type(p->d->arena, TY_ARRAY, esz * dims[i]);
		a->pointee = t;
		a->count = dims[i];
		t = a;
	}
	if (is(p, ":")) {
		Loc at = p->tloc;
		int64_t b;
		if (!next(p) || !cexpr(p, &b))
			return false;
		if (b < 0 || b > 64)
			return cerr(p, at, "bitfield width %lld is out of range", (long long)b);
		*bits = (int)b;
	}
	if (!skip_qualifiers(p, NULL))
		return false;
	*out = t;
	return true;
}

/* ---- top level ---- */

static bool include_text(CDefs *d, const char *path, Loc inc, Error *err)
{
	char *text;
	if (d->depth >= 16)
		return error_at(err, inc, "#include nested too deeply (%s)", path);
	if (!(text = read_file_all(path, NULL)))
		return error_at(err, inc, "cannot read %s: %s", path, strerror(errno));
	d->depth++;
	bool ok = cdefs_parse(d, text, (Loc){1, 1, 1}, arena_strdup(d->arena, path), inc, err);
	d->depth--;
	free(text);
	return ok;
}

bool cdefs_include_file(CDefs *d, const char *path, Loc inc, Error *err)
{
	return include_text(d, path, inc, err);
}

/* rest of a preprocessor line, without comments */
static void pp_rest(CP *p, char *buf, size_t n)
{
	size_t j = 0;
	while (ch(p, 0) && ch(p, 0) != '\n') {
		if (ch(p, 0) == '\\' && ch(p, 1) == '\n') {
			adv(p, 2);
			continue;
		}
		if (ch(p, 0) == '/' && (ch(p, 1) == '/' || ch(p, 1) == '*'))
			break;
		if (j + 1 < n)
			buf[j++] = ch(p, 0);
		adv(p, 1);
	}
	while (j && isspace((unsigned char)buf[j - 1]))
		j--;
	buf[j] = 0;
}

static bool pp_include(CP *p, Loc at)
{
	while (ch(p, 0) == ' ' || ch(p, 0) == '\t')
		adv(p, 1);
	char q = ch(p, 0), close = q == '<' ? '>' : '"';
	if (q != '<' && q != '"')
		return cerr(p, at, "#include needs <FILE> or \"FILE\"");
	adv(p, 1);
	char name[512];
	size_t j = 0;
	while (ch(p, 0) && ch(p, 0) != close && ch(p, 0) != '\n') {
		if (j + 1 < sizeof(name))
			name[j++] = ch(p, 0);
		adv(p, 1);
	}
	name[j] = 0;
	if (ch(p, 0) != close)
		return cerr(p, at, "unterminated #include file name");
	adv(p, 1);
	char path[1024];
	Loc inc = p->file ? p->inc : at;
	for (int i = 0; i < p->d->ninclude_dirs; i++) {
		snprintf(path, sizeof(path), "%s/%s", p->d->include_dirs[i], name);
		if (access(path, R_OK) == 0)
			return include_text(p->d, path, inc, p->err);
	}
	if (q == '"') {
		if (name[0] == '/')
			snprintf(path, sizeof(path), "%s", name);
		else
			snprintf(path, sizeof(path), "%s%s", p->d->script_dir ? p->d->script_dir : "",
				 name);
		if (access(path, R_OK) == 0)
			return include_text(p->d, path, inc, p->err);
		return cerr(p, at, "#include \"%s\": no such file (add a directory with -I)", name);
	}
	/* <system header> not in -I: its types come from the kernel's BTF */
	return true;
}

static bool pp_define(CP *p, Loc at)
{
	if (!next(p))
		return false;
	if (p->tk != CT_IDENT)
		return cerr(p, p->tloc, "#define needs a name");
	char *name = tokdup(p);
	if (ch(p, 0) == '(')
		return cerr(p, p->tloc, "macros with arguments are not supported (#define %s(...)); "
			    "only #define NAME constant", name);
	char rest[512];
	pp_rest(p, rest, sizeof(rest));
	if (!rest[0])
		return true; /* an include guard or a flag: nothing to keep */
	/* evaluate the value as a constant expression */
	CP sub = *p;
	sub.s = rest;
	sub.pos = 0;
	while (rest[sub.pos] == ' ' || rest[sub.pos] == '\t')
		sub.pos++;
	sub.line = at.line;
	sub.col = p->col - (int)strlen(rest) + (int)sub.pos;
	int64_t v;
	if (!next(&sub))
		return false;
	if (sub.tk == CT_STR)
		return true; /* string macros: not usable as constants, ignored */
	if (!cexpr(&sub, &v))
		return false;
	if (sub.tk != CT_EOF) {
		char b[48];
		return cerr(p, sub.tloc, "#define %s: expected a constant, found %s", name,
			    tokdesc(&sub, b, sizeof(b)));
	}
	add_name(p->d, CN_CONST, name, NULL, v);
	return true;
}

static bool directive(CP *p)
{
	Loc at = p->tloc;
	if (!next(p))
		return false;
	if (is(p, "include"))
		return pp_include(p, at);
	if (is(p, "define"))
		return pp_define(p, at);
	if (is(p, "ifndef") || is(p, "ifdef") || is(p, "endif") || is(p, "pragma") ||
	    is(p, "if") || is(p, "else") || is(p, "elif") || is(p, "undef") || is(p, "error") ||
	    is(p, "warning")) {
		/* header guards: every branch is read (simple headers only) */
		char rest[512];
		pp_rest(p, rest, sizeof(rest));
		return true;
	}
	char b[48];
	return cerr(p, p->tloc, "unsupported preprocessor directive %s", tokdesc(p, b, sizeof(b)));
}

static bool starts_def(const CP *p)
{
	return is(p, "struct") || is(p, "union") || is(p, "enum") || is(p, "typedef");
}

/* After a struct body in the script: is the next identifier a declarator
 * ("} x;") or the first probe ("}\nBEGIN {")? */
static bool declarator_follows(const CP *p)
{
	if (is(p, "*"))
		return true;
	if (p->tk != CT_IDENT)
		return false;
	size_t i = p->pos;
	while (p->s[i] == ' ' || p->s[i] == '\t')
		i++;
	return p->s[i] == ';' || p->s[i] == ',' || p->s[i] == '[' || p->s[i] == '=';
}

static bool declaration(CP *p)
{
	bool td = is(p, "typedef");
	Loc at = p->tloc;
	if (td && !next(p))
		return false;
	bool tagged = is(p, "struct") || is(p, "union") || is(p, "enum");
	Type *base;
	if (!parse_spec(p, &base))
		return false;
	if (is(p, ";"))
		return next(p);
	if (is(p, "{"))
		return cerr(p, p->tloc, "unexpected '{': a function body? only type definitions "
			    "are supported");
	if (!td && tagged && p->script && !declarator_follows(p))
		return true; /* "struct Foo { ... }" without ';', as bpftrace allows */
	for (;;) {
		Type *t;
		char *name;
		Loc nloc;
		int bits = -1;
		if (!parse_declarator(p, base, &t, &name, &nloc, &bits))
			return false;
		if (is(p, "{"))
			return cerr(p, p->tloc, "function bodies are not supported in C definitions");
		if (bits >= 0)
			return cerr(p, nloc, "a bitfield outside of a struct");
		if (td) {
			if (!*name)
				return cerr(p, nloc, "a typedef needs a name");
			add_name(p->d, CN_TYPEDEF, name, t, 0);
		} else if (p->script) {
			return cerr(p, at, "only type definitions are supported before the probes "
				    "(struct, union, enum, typedef, #define, #include)");
		}
		if (is(p, "=")) /* an initialized variable in a header: skipped */
			return cerr(p, p->tloc, "variable definitions are not supported in C "
				    "definitions");
		if (!is(p, ","))
			break;
		if (!next(p))
			return false;
	}
	return expect(p, ";", "';'");
}

bool cdefs_parse(CDefs *d, const char *text, Loc at, const char *file, Loc inc, Error *err)
{
	CP p = {.d = d, .s = text, .line = at.line ? at.line : 1, .col = at.col ? at.col : 1,
		.script = file == NULL, .file = file, .inc = inc, .err = err};
	if (!next(&p))
		return false;
	while (p.tk != CT_EOF) {
		if (p.tk == CT_HASH) {
			if (!directive(&p) || !next(&p))
				return false;
			continue;
		}
		if (p.script && !starts_def(&p))
			break; /* the first probe */
		if (!declaration(&p))
			return false;
	}
	/* records only named (struct x *p) and never defined here: the kernel's */
	for (int i = 0; i < d->names.n; i++) {
		Type *t = d->names.v[i].type;
		if (t && t->kind == TY_RECORD && !t->nfields && !t->pending && !t->btf_id) {
			t->pending = true;
		}
	}
	return true;
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
	bool ok = next(&p);
	bool tagged = ok && (is(&p, "struct") || is(&p, "union") || is(&p, "enum"));
	if (ok && tagged) {
		bool un = is(&p, "union"), en = is(&p, "enum");
		ok = next(&p);
		char nm[128];
		snprintf(nm, sizeof(nm), "%.*s", p.tl, p.ts);
		if (ok) {
			t = cdefs_find(dd, en ? CN_ENUM : un ? CN_UNION : CN_STRUCT, nm);
			if (!t)
				t = btf_find_type(en ? "enum" : un ? "union" : "struct", nm);
			if (!t) {
				if (btf_error() && !btf_kernel())
					snprintf(err, errlen, "unknown type '%s %s' (%s)",
						 en ? "enum" : un ? "union" : "struct", nm, btf_error());
				else
					snprintf(err, errlen, "unknown type '%s %s': it is not defined "
						 "in the script nor in the kernel's BTF",
						 en ? "enum" : un ? "union" : "struct", nm);
				ok = false;
			} else {
				ok = next(&p);
			}
		}
	} else if (ok) {
		ok = parse_spec(&p, &t);
		if (!ok)
			snprintf(err, errlen, "%s", e.msg);
	}
	while (ok && is(&p, "*")) {
		t = ptr_to(&p, t, false);
		ok = next(&p);
	}
	if (ok && p.tk != CT_EOF) {
		snprintf(err, errlen, "cannot parse the type '%s'", text);
		ok = false;
	}
	dd->names.n = saved_n;
	dd->arena = saved;
	if (dd == &tmp)
		vec_free(&tmp.names);
	return ok ? t : NULL;
}

/* ---- suggestions ---- */

static int edit_distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b);
	if (la > 63 || lb > 63)
		return 99;
	int d[64][64];
	for (int i = 0; i <= la; i++)
		d[i][0] = i;
	for (int j = 0; j <= lb; j++)
		d[0][j] = j;
	for (int i = 1; i <= la; i++)
		for (int j = 1; j <= lb; j++) {
			int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			int x = d[i - 1][j] + 1, y = d[i][j - 1] + 1;
			d[i][j] = c < x ? (c < y ? c : y) : (x < y ? x : y);
		}
	return d[la][lb];
}

static void collect(Type *rec, const char *name, const char **best, int *bd, int nbest, int depth)
{
	int n;
	const Field *f = type_fields(rec, &n);
	for (int i = 0; i < n; i++) {
		if (!*f[i].name) {
			if (depth < 8 && f[i].type->kind == TY_RECORD)
				collect(f[i].type, name, best, bd, nbest, depth + 1);
			continue;
		}
		int dist = edit_distance(name, f[i].name);
		if (strstr(f[i].name, name) || strstr(name, f[i].name))
			dist = dist < 2 ? dist : 2;
		for (int k = 0; k < nbest; k++)
			if (dist < bd[k]) {
				for (int m = nbest - 1; m > k; m--) {
					bd[m] = bd[m - 1];
					best[m] = best[m - 1];
				}
				bd[k] = dist;
				best[k] = f[i].name;
				break;
			}
	}
}

void ctype_suggest(Type *rec, const char *name, char *out, size_t n)
{
	const char *best[3] = {0};
	int bd[3] = {99, 99, 99};
	collect(rec, name, best, bd, 3, 0);
	int limit = (int)strlen(name) / 2 + 1;
	size_t len = 0;
	out[0] = 0;
	for (int k = 0; k < 3; k++)
		if (best[k] && bd[k] <= limit && len + 1 < n)
			len += (size_t)snprintf(out + len, n - len, "%s'%s'", len ? ", " : "", best[k]);
}
