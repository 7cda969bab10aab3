/* The C-declaration parser's constant expressions: array sizes, enum
 * values, #define values and #if conditions (sizeof, casts, the C
 * operators on 64-bit integers). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdecl_int.h"

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

/* sizeof (TYPE) in an array size: glibc's _SIGSET_NWORDS */
static bool csizeof(CP *p, int64_t *v)
{
	Type *t;
	if (!cd_next(p) || !cd_expect(p, "(", "'(' after sizeof"))
		return false;
	Loc at = p->tloc;
	if (!cd_decl_spec(p, &t))
		return false;
	while (cd_is(p, "*")) {
		t = cd_ptr_to(p, t, false);
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
	return cdefs_find(p->d, CN_TYPEDEF, nm) || cd_fixed_int(nm, &bits, &sg);
}

static bool cprimary(CP *p, int64_t *v);

/* (TYPE) operand, the '(' read: the operand's value in the type's width */
static bool ccast(CP *p, int64_t *v)
{
	Type *t;
	if (!cd_decl_spec(p, &t))
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
		if (cd_const_at(p->d, name, p->nest, v) || btf_enum_value(p->d->sym, name, v))
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
