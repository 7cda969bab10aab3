/* #if and #elif expressions (cpp.h): `defined NAME` and `defined(NAME)`
 * first, then macros expanded, then names left over are 0; integers are
 * intmax_t or, with a u suffix or by C's conversions, uintmax_t; errors
 * in cpp's words. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpp_int.h"

typedef struct Val {
	uint64_t v;
	bool u; /* unsigned */
} Val;

typedef struct EP {
	Cpp *c;
	PTok *t;
	const PTok *dir; /* the #if (for an empty line) */
	int parens;
} EP;

static Val cond(EP *p);

static Val number(EP *p, const PTok *t)
{
	char *s = cpp_tok_str(p->c, t), *end;
	if (strpbrk(s, ".") || (!strncasecmp(s, "0x", 2) ? strpbrk(s, "pP") != NULL : strpbrk(s, "eE") != NULL))
		cpp_fail(p->c, t, false, "floating constant in preprocessor expression");
	int base = 10;
	const char *digits = s;
	if (!strncasecmp(s, "0x", 2))
		base = 16, digits = s + 2;
	else if (!strncasecmp(s, "0b", 2))
		base = 2, digits = s + 2;
	else if (s[0] == '0')
		base = 8;
	Val r = {strtoull(digits, &end, base), false};
	const char *suf = end;
	size_t nu = 0, nl = 0;
	for (const char *q = suf; *q; q++)
		nu += *q == 'u' || *q == 'U', nl += *q == 'l' || *q == 'L';
	if (end == digits || nu > 1 || nl > 2 || strspn(suf, "uUlL") != strlen(suf))
		cpp_fail(p->c, t, false, "invalid suffix \"%s\" on integer constant", end == digits ? s : suf);
	r.u = nu || (int64_t)r.v < 0;
	return r;
}

static Val character(EP *p, const PTok *t)
{
	const char *s = (const char *)memchr(t->s, '\'', (size_t)t->len) + 1; /* past L, u or U */
	int64_t v;
	if (*s != '\\') {
		v = (signed char)*s;
	} else if (s[1] == 'x') {
		v = (signed char)strtol(s + 2, NULL, 16);
	} else if (s[1] >= '0' && s[1] <= '7') {
		v = (signed char)strtol(s + 1, NULL, 8);
	} else {
		static const char from[] = "ntrabfv\\'\"?e", to[] = "\n\t\r\a\b\f\v\\'\"?\033";
		const char *k = strchr(from, s[1]);
		v = k ? to[k - from] : s[1];
	}
	if (t->s + t->len - s < 2 || *s == '\'')
		cpp_fail(p->c, t, false, "empty character constant");
	return (Val){(uint64_t)v, false};
}

static _Noreturn void missing_operand(EP *p, const PTok *op)
{
	cpp_fail(p->c, op, false, "operator '%.*s' has no right operand", op->len, op->s);
}

static Val primary(EP *p)
{
	PTok *t = p->t;
	if (t->kind == PT_EOF)
		cpp_fail(p->c, p->dir, false, "#if with no expression");
	p->t = t->next;
	switch (t->kind) {
	case PT_NUM: return number(p, t);
	case PT_CHAR: return character(p, t);
	case PT_IDENT: return (Val){0, false}; /* a name that is not a macro */
	default: break;
	}
	if (cpp_is(t, "(")) {
		if (++p->parens > PAREN_MAX)
			cpp_fail(p->c, t, true, "#if expression nested more than %d deep", PAREN_MAX);
		if (cpp_is(p->t, ")"))
			cpp_fail(p->c, p->t, false, "missing expression between '(' and ')'");
		Val v = cond(p);
		if (!cpp_is(p->t, ")"))
			cpp_fail(p->c, t, false, "missing ')' in expression");
		p->t = p->t->next;
		p->parens--;
		return v;
	}
	static const char *const unary[] = {"+", "-", "~", "!"};
	for (int i = 0; i < 4; i++) {
		if (!cpp_is(t, unary[i]))
			continue;
		if (p->t->kind == PT_EOF)
			missing_operand(p, t);
		Val v = primary(p);
		switch (i) {
		case 1: v.v = -v.v; break;
		case 2: v.v = ~v.v; break;
		case 3: v = (Val){!v.v, false}; break;
		}
		return v;
	}
	if (t->kind == PT_STR)
		cpp_fail(p->c, t, false, "token \"%.*s\" is not valid in preprocessor expressions", t->len, t->s);
	cpp_fail(p->c, t, false, "token \"%.*s\" is not valid in preprocessor expressions", t->len, t->s);
}

/* binary operators by precedence, lowest first */
static const char *const levels[][5] = {
	{"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="},
	{"<<", ">>"}, {"+", "-"}, {"*", "/", "%"},
};
#define NLEVELS (int)(sizeof(levels) / sizeof(levels[0]))

static int op_at(const PTok *t, int level)
{
	for (int i = 0; i < 5 && levels[level][i]; i++)
		if (cpp_is(t, levels[level][i]))
			return i;
	return -1;
}

static bool val_less(Val a, Val b, bool u)
{
	return u ? a.v < b.v : (int64_t)a.v < (int64_t)b.v;
}

static Val apply(EP *p, const PTok *op, Val a, Val b)
{
	bool u = a.u || b.u;
	const char *o = cpp_tok_str(p->c, op);
	if ((!strcmp(o, "/") || !strcmp(o, "%")) && !b.v)
		cpp_fail(p->c, op, false, "division by zero in #if");
	Val r = {0, u};
	if (!strcmp(o, "||")) r = (Val){a.v || b.v, false};
	else if (!strcmp(o, "&&")) r = (Val){a.v && b.v, false};
	else if (!strcmp(o, "|")) r.v = a.v | b.v;
	else if (!strcmp(o, "^")) r.v = a.v ^ b.v;
	else if (!strcmp(o, "&")) r.v = a.v & b.v;
	else if (!strcmp(o, "==")) r = (Val){a.v == b.v, false};
	else if (!strcmp(o, "!=")) r = (Val){a.v != b.v, false};
	else if (!strcmp(o, "<")) r = (Val){val_less(a, b, u), false};
	else if (!strcmp(o, ">")) r = (Val){val_less(b, a, u), false};
	else if (!strcmp(o, "<=")) r = (Val){!val_less(b, a, u), false};
	else if (!strcmp(o, ">=")) r = (Val){!val_less(a, b, u), false};
	else if (!strcmp(o, "<<")) r = (Val){b.v >= 64 ? 0 : a.v << b.v, a.u};
	else if (!strcmp(o, ">>"))
		r = (Val){b.v >= 64 ? (a.u || (int64_t)a.v >= 0 ? 0 : (uint64_t)-1)
				   : a.u ? a.v >> b.v : (uint64_t)((int64_t)a.v >> b.v), a.u};
	else if (!strcmp(o, "+")) r.v = a.v + b.v;
	else if (!strcmp(o, "-")) r.v = a.v - b.v;
	else if (!strcmp(o, "*")) r.v = a.v * b.v;
	else if (!strcmp(o, "/")) r.v = u ? a.v / b.v : (int64_t)a.v == INT64_MIN && (int64_t)b.v == -1 ? a.v : (uint64_t)((int64_t)a.v / (int64_t)b.v);
	else if (!strcmp(o, "%")) r.v = u ? a.v % b.v : (int64_t)b.v == -1 ? 0 : (uint64_t)((int64_t)a.v % (int64_t)b.v);
	return r;
}

static Val binary(EP *p, int level)
{
	if (level == NLEVELS)
		return primary(p);
	Val a = binary(p, level + 1);
	while (op_at(p->t, level) >= 0) {
		PTok *op = p->t;
		p->t = op->next;
		if (p->t->kind == PT_EOF)
			missing_operand(p, op);
		Val b = binary(p, level + 1);
		a = apply(p, op, a, b);
	}
	return a;
}

static Val cond(EP *p)
{
	Val c = binary(p, 0);
	if (!cpp_is(p->t, "?"))
		return c;
	PTok *q = p->t;
	p->t = q->next;
	if (++p->parens > PAREN_MAX)
		cpp_fail(p->c, q, true, "#if expression nested more than %d deep", PAREN_MAX);
	Val a = cond(p);
	if (!cpp_is(p->t, ":"))
		cpp_fail(p->c, q, false, "'?' without following ':'");
	p->t = p->t->next;
	Val b = cond(p);
	p->parens--;
	Val r = c.v ? a : b;
	r.u = a.u || b.u;
	return r;
}

/* `defined X`, `defined(X)` -> 1 or 0, before any expansion */
static PTok *replace_defined(Cpp *c, PTok *line)
{
	for (PTok *t = line; t->kind != PT_EOF; t = t->next) {
		if (!cpp_is(t, "defined"))
			continue;
		PTok *n = t->next, *end;
		bool paren = cpp_is(n, "(");
		PTok *name = paren ? n->next : n;
		if (name->kind != PT_IDENT)
			cpp_fail(c, t, false, "operator \"defined\" requires an identifier");
		end = name;
		if (paren) {
			if (!cpp_is(name->next, ")"))
				cpp_fail(c, name, false, "missing ')' after \"defined\"");
			end = name->next;
		}
		t->kind = PT_NUM;
		t->s = cpp_find(c, name) ? "1" : "0";
		t->len = 1;
		t->next = end->next;
	}
	return line;
}

bool cpp_if_value(Cpp *c, PTok *line, const PTok *directive)
{
	line = cpp_expand_list(c, replace_defined(c, line));
	EP p = {c, line, directive};
	if (line->kind == PT_EOF)
		cpp_fail(c, directive, false, "#if with no expression");
	Val v = cond(&p);
	if (p.t->kind != PT_EOF) {
		if (cpp_is(p.t, ")"))
			cpp_fail(c, p.t, false, "missing '(' in expression");
		if (cpp_is(p.t, ":"))
			cpp_fail(c, p.t, false, "':' without preceding '?'");
		cpp_fail(c, p.t, false, "missing binary operator before token \"%.*s\"", p.t->len, p.t->s);
	}
	return v.v != 0;
}
