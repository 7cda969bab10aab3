/* The value of an integer expression known while compiling: literals,
 * numeric positional parameters, a call whose value is known (FuncDef.known:
 * is_str()...), a field of a tuple or record literal (typeinfo()'s), the
 * comparison of two known strings, and operators over them.  An `if` whose
 * condition has one such value never runs its other branch, so what that
 * branch asks of the compiler (bpftrace 0.26's fail() and static_assert())
 * is not asked (Sema.dead). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sema_int.h"

static bool param_value(const Sema *s, const Expr *e, int64_t *v)
{
	const Options *o = &s->sc->opt;
	if (e->ival < 1 || (int)e->ival > o->nparams) {
		*v = 0; /* a missing parameter reads as 0 */
		return true;
	}
	const char *p = o->params[e->ival - 1];
	char *end;
	*v = strtoll(p, &end, 0);
	return *p && !*end;
}

static bool unop_value(Op op, int64_t a, int64_t *v)
{
	switch (op) {
	case OP_NEG: *v = (int64_t)(0 - (uint64_t)a); return true;
	case OP_LNOT: *v = !a; return true;
	case OP_BNOT: *v = ~a; return true;
	default: return false;
	}
}

static bool binop_value(Op op, int64_t a, int64_t b, int64_t *v)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
	switch (op) {
	case OP_ADD: *v = (int64_t)(ua + ub); return true;
	case OP_SUB: *v = (int64_t)(ua - ub); return true;
	case OP_MUL: *v = (int64_t)(ua * ub); return true;
	case OP_DIV: if (!b) return false; *v = a / b; return true;
	case OP_MOD: if (!b) return false; *v = a % b; return true;
	case OP_BAND: *v = a & b; return true;
	case OP_BOR: *v = a | b; return true;
	case OP_BXOR: *v = a ^ b; return true;
	case OP_SHL: *v = (int64_t)(ua << (ub & 63)); return true;
	case OP_SHR: *v = (int64_t)(ua >> (ub & 63)); return true;
	case OP_EQ: *v = a == b; return true;
	case OP_NE: *v = a != b; return true;
	case OP_LT: *v = a < b; return true;
	case OP_LE: *v = a <= b; return true;
	case OP_GT: *v = a > b; return true;
	case OP_GE: *v = a >= b; return true;
	case OP_LAND: *v = a && b; return true;
	case OP_LOR: *v = a || b; return true;
	default: return false;
	}
}

/* the element of a tuple or record literal that `.name` or `.N` reads */
static const Expr *literal_field(const Expr *e)
{
	const Expr *t = e->a;
	if (e->arrow || !t || t->kind != E_TUPLE || !e->name)
		return NULL;
	for (int i = 0; i < t->args.n; i++) {
		char idx[16];
		snprintf(idx, sizeof(idx), "%d", i);
		if (!strcmp(t->names ? t->names[i] : idx, e->name))
			return t->args.v[i];
	}
	return NULL;
}

/* a string known while compiling: a literal, or a literal's field */
static const Expr *const_str(const Expr *e)
{
	if (e && e->kind == E_FIELD)
		return const_str(literal_field(e));
	return e && e->kind == E_STR ? e : NULL;
}

/* `a == b` / `a != b` of two known strings */
static bool known_strs_compare(const Expr *e, int64_t *v)
{
	const Expr *a = const_str(e->a), *b = const_str(e->b);
	if (!a || !b || (e->op != OP_EQ && e->op != OP_NE))
		return false;
	bool same = a->slen == b->slen && !memcmp(a->sval, b->sval, a->slen);
	*v = e->op == OP_EQ ? same : !same;
	return true;
}

bool sema_const_int(const Sema *s, const Expr *e, int64_t *v)
{
	int64_t a, b;
	switch (e->kind) {
	case E_INT:
		*v = (int64_t)e->ival;
		return true;
	case E_POSPARAM:
		return param_value(s, e, v);
	case E_UNOP:
		return sema_const_int(s, e->a, &a) && unop_value(e->op, a, v);
	case E_BINOP:
		if (known_strs_compare(e, v))
			return true;
		return sema_const_int(s, e->a, &a) && sema_const_int(s, e->b, &b) &&
		       binop_value(e->op, a, b, v);
	case E_TERNARY:
		if (!sema_const_int(s, e->a, &a))
			return false;
		return sema_const_int(s, a ? e->b : e->c, v);
	case E_FIELD:
		e = literal_field(e);
		return e && sema_const_int(s, e, v);
	case E_CALL:
		if (!e->func || !e->func->known)
			return false;
		*v = e->aux;
		return true;
	default:
		return false;
	}
}

/* `comptime e`, `if comptime (e)`: e checked, and its value, which must be
 * known while compiling (bpftrace 0.26's words when it is not) */
bool sema_comptime_value(Sema *s, Expr *e, int64_t *v)
{
	if (!sema_expr(s, e))
		return false;
	if (e->type->kind != TY_INT || !sema_const_int(s, e, v))
		return sema_error(s, e->loc, "Unable to resolve comptime expression");
	return true;
}
