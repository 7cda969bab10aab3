/* The value of an integer expression known while compiling: literals,
 * numeric positional parameters, and operators over them.  An `if` whose
 * condition has one such value never runs its other branch, so what that
 * branch asks of the compiler (bpftrace 0.26's fail() and static_assert())
 * is not asked (Sema.dead). */
#include <stdlib.h>

#include "sema.h"

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
		return sema_const_int(s, e->a, &a) && sema_const_int(s, e->b, &b) &&
		       binop_value(e->op, a, b, v);
	case E_TERNARY:
		if (!sema_const_int(s, e->a, &a))
			return false;
		return sema_const_int(s, a ? e->b : e->c, v);
	default:
		return false;
	}
}
