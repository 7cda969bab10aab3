/* D's NULL string: a string compared with NULL (or 0).  DTrace's string
 * functions return NULL where sonde's return the empty string (strstr()
 * without a match, strtok() at the end, an unset string variable), so
 * `s == NULL` is `s == ""`. */
#include "../compile/sema.h"
#include "sema_d.h"

static bool is_zero_literal(const Expr *e)
{
	return e->kind == E_INT && e->ival == 0;
}

/* SemaHooks.binop_types: == and != of a string and NULL become a string
 * comparison with ""; other operands are left to the core's message */
bool sema_d_binop_null(Sema *s, Expr *e)
{
	if (e->op != OP_EQ && e->op != OP_NE)
		return true;
	Expr *zero = NULL;
	if (e->a->type->kind == TY_STR && is_zero_literal(e->b))
		zero = e->b;
	else if (e->b->type->kind == TY_STR && is_zero_literal(e->a))
		zero = e->a;
	if (!zero)
		return true;
	zero->kind = E_STR;
	zero->sval = "";
	zero->slen = 0;
	zero->type = NULL;
	return sema_expr(s, zero);
}
