/* Integer constant expressions as the D compiler folds them while it
 * parses, and the check it makes on them: a division or modulus whose
 * right side folds to 0 is a compile error (D_DIV_ZERO), also with a
 * variable on the left (`x % 0`, `x /= 0`). */
#include <stdint.h>

#include "dtrace.h"

static bool fold_binop(Op op, int64_t a, int64_t b, int64_t *v)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
	switch (op) {
	case OP_ADD: *v = (int64_t)(ua + ub); return true;
	case OP_SUB: *v = (int64_t)(ua - ub); return true;
	case OP_MUL: *v = (int64_t)(ua * ub); return true;
	case OP_DIV: if (!b || (a == INT64_MIN && b == -1)) return false; *v = a / b; return true;
	case OP_MOD: if (!b || (a == INT64_MIN && b == -1)) return false; *v = a % b; return true;
	case OP_BAND: *v = a & b; return true;
	case OP_BOR: *v = a | b; return true;
	case OP_BXOR: *v = a ^ b; return true;
	case OP_SHL: *v = (int64_t)(ua << (ub & 63)); return true;
	case OP_SHR: *v = a >> (ub & 63); return true;
	default: return false;
	}
}

bool d_const_int(const Expr *e, int64_t *v)
{
	int64_t a, b;
	switch (e->kind) {
	case E_INT:
		*v = (int64_t)e->ival;
		return true;
	case E_UNOP:
		if (!d_const_int(e->a, &a))
			return false;
		if (e->op == OP_NEG)
			*v = (int64_t)(0 - (uint64_t)a);
		else if (e->op == OP_BNOT)
			*v = ~a;
		else if (e->op == OP_LNOT)
			*v = !a;
		else
			return false;
		return true;
	case E_BINOP:
		return d_const_int(e->a, &a) && d_const_int(e->b, &b) && fold_binop(e->op, a, b, v);
	default:
		return false;
	}
}

bool d_check_div(Op op, const Expr *divisor, Error *err)
{
	int64_t v;
	if ((op != OP_DIV && op != OP_MOD) || !d_const_int(divisor, &v) || v)
		return true;
	return error_at(err, divisor->loc, "expression contains division by zero");
}
