/* Operators: binary (with bpftrace's sign warnings and the comparison of
 * arrays and buffers), unary, ?:, casts and sizeof. */
#include "sema_int.h"

#include <stdio.h>
#include <string.h>

static bool is_str_literal(const Expr *e)
{
	return e->kind == E_STR;
}

static const char *int_name(const Type *t, char *buf, size_t n)
{
	snprintf(buf, n, "%sint%d", t->is_signed ? "" : "unsigned ", t->bits);
	return buf;
}

/* bpftrace's warnings: mixing signs, and dividing signed values (division
 * is unsigned, as in bpftrace).  A literal takes the other side's sign. */
static void warn_signs(Sema *s, const Expr *e)
{
	const Type *l = e->a->type, *r = e->b->type;
	/* as bpftrace: positional parameters count as literals, and pointer
	 * arithmetic is not signed arithmetic */
	if (type_is_ptr(l) || type_is_ptr(r))
		return;
	bool lit_a = e->a->kind == E_INT || e->a->kind == E_POSPARAM;
	bool lit_b = e->b->kind == E_INT || e->b->kind == E_POSPARAM;
	bool arith = e->op >= OP_ADD && e->op <= OP_MOD;
	bool cmp = e->op >= OP_EQ && e->op <= OP_GE;
	char a[32], b[32];
	if (!lit_a && !lit_b && l->is_signed != r->is_signed && (arith || cmp))
		sema_warn(s, e->loc, "%s integers of different signs: '%s' and '%s' can lead to "
			  "undefined behavior", cmp ? "comparison of" : "arithmetic on",
			  int_name(l, a, sizeof(a)), int_name(r, b, sizeof(b)));
	if ((e->op == OP_DIV || e->op == OP_MOD) &&
	    ((!lit_a && l->is_signed) || (!lit_b && r->is_signed)))
		sema_warn(s, e->loc, "signed operands for '%s' can lead to undefined behavior (cast to "
			  "unsigned to silence warning)", op_str(e->op));
}

/* == and != of two arrays (same count of same-sized integers) or two
 * buffers: their bytes */
static bool sema_mem_equality(Sema *s, Expr *e)
{
	Type *l = e->a->type, *r = e->b->type;
	if (e->op != OP_EQ && e->op != OP_NE)
		return sema_error_late(s, e->loc, "%s can only be compared with == and !=",
				  l->kind == TY_BUF ? "buffers" : "arrays");
	if (l->kind == TY_ARRAY &&
	    (l->pointee->kind != TY_INT || r->pointee->kind != TY_INT || l->pointee->pointee ||
	     r->pointee->pointee || type_csize(l->pointee) != type_csize(r->pointee)))
		return sema_error_late(s, e->loc, "Only arrays of same sized integer support comparison "
				  "operators.");
	if (l->kind == TY_ARRAY && l->count != r->count)
		return sema_error_late(s, e->loc, "Only arrays of same size support comparison operators.");
	e->type = sema_truth_type(s);
	return true;
}

/* the dialect's type of an operator's result, else t */
static Type *op_type(Sema *s, const Expr *e, Type *t)
{
	const SemaHooks *h = sema_hooks(s);
	Type *c = h->op_type ? h->op_type(s, e) : NULL;
	return c ? c : t;
}

/* two strings: == and != (and <, <= ... where the dialect orders them) */
static bool str_compare(Sema *s, Expr *e)
{
	const Type *l = e->a->type, *r = e->b->type;
	if (e->op < OP_EQ || e->op > OP_GE ||
	    (!sema_hooks(s)->strings_ordered && e->op != OP_EQ && e->op != OP_NE))
		return sema_error_late(s, e->loc, "The %s operator can not be used on expressions "
				       "of types %s, %s", op_str(e->op), tn(l), tn(r));
	e->type = op_type(s, e, sema_truth_type(s));
	(void)is_str_literal;
	return true;
}

bool sema_binop(Sema *s, Expr *e)
{
	const SemaHooks *h = sema_hooks(s);
	if (h->binop_operands && !h->binop_operands(s, e))
		return false;
	if (!sema_exprs2(s, e->a, e->b))
		return false;
	sema_addrspace_binop(s, e);
	Type *l = e->a->type, *r = e->b->type;
	if ((l->kind == TY_NONE || r->kind == TY_NONE) && !s->strict) {
		e->type = ty_int(s, 64, true);
		return true;
	}
	if (h->binop_ptr && (type_is_ptr(l) || type_is_ptr(r)) && !h->binop_ptr(s, e))
		return false;
	if (l->kind == TY_STR && r->kind == TY_STR)
		return str_compare(s, e);
	if ((l->kind == TY_ARRAY && r->kind == TY_ARRAY) || (l->kind == TY_BUF && r->kind == TY_BUF))
		return sema_mem_equality(s, e);
	if (l->kind == TY_USERNAME && r->kind == TY_USERNAME && (e->op == OP_EQ || e->op == OP_NE)) {
		e->type = sema_truth_type(s); /* the uids they print the names of (bpftrace takes it) */
		return true;
	}
	if ((l->kind != TY_INT || r->kind != TY_INT) && h->binop_types && !h->binop_types(s, e))
		return false;
	if (e->a->type->kind == TY_STR && e->b->type->kind == TY_STR)
		return str_compare(s, e); /* the dialect's hook made both strings (D's NULL) */
	if (l->kind != TY_INT || r->kind != TY_INT)
		return sema_error_late(s, e->loc, "operator %s needs two integers (or two strings for == "
				       "and !=), got %s and %s", op_str(e->op), tn(l), tn(r));
	bool cmp = e->op >= OP_EQ && e->op <= OP_LOR;
	warn_signs(s, e);
	/* bpftrace's rule: signed only when both sides are signed */
	e->type = cmp ? sema_truth_type(s) : ty_int(s, 64, l->is_signed && r->is_signed);
	e->type = op_type(s, e, e->type);
	sema_ctype_arith(s, e); /* pointer +/- integer */
	return true;
}

bool sema_unop(Sema *s, Expr *e)
{
	if (e->op == OP_DEREF)
		return sema_ctype_deref(s, e);
	if (e->op == OP_ADDR && sema_hooks(s)->addr_of_vars)
		return sema_ctype_addr_of(s, e);
	if (e->op == OP_ADDR)
		return sema_error(s, e->loc, "the address-of operator '&' is not supported");
	const SemaHooks *h = sema_hooks(s);
	if (h->unop && !(sema_expr(s, e->a) && h->unop(s, e, op_str(e->op))))
		return false;
	if (!sema_need_int(s, e->a, "the operand"))
		return false;
	/* bpftrace: -x and ~x keep x's signedness (-$u of an unsigned is unsigned) */
	e->type = e->op == OP_LNOT ? sema_truth_type(s) : ty_int(s, 64, e->a->type->is_signed);
	e->type = op_type(s, e, e->type);
	return true;
}

/* `if comptime (c) { a } else { b }` as a value: the arm c picks, alone
 * (the other is never checked) */
static bool comptime_arm(Sema *s, Expr *e)
{
	int64_t v = 0;
	if (!sema_comptime_value(s, e->a, &v))
		return false;
	*e = *(v ? e->b : e->c);
	return sema_expr(s, e);
}

bool sema_ternary(Sema *s, Expr *e)
{
	if (e->comptime)
		return comptime_arm(s, e);
	const SemaHooks *h = sema_hooks(s);
	if (h->ternary && !h->ternary(s, e))
		return false;
	bool ok = sema_need_int(s, e->a, "a condition");
	if (!(ok || s->all) || !sema_exprs2(s, e->b, e->c) || !ok)
		return false;
	Type *l = e->b->type, *r = e->c->type;
	if (l->kind == TY_NONE || r->kind == TY_NONE) {
		e->type = l->kind == TY_NONE ? r : l;
		return true;
	}
	if (l->kind == TY_INT && r->kind == TY_INT) {
		e->type = l->is_bool && r->is_bool ? ty_bool(s) : ty_int(s, 64, l->is_signed && r->is_signed);
		return true;
	}
	if (l->kind == TY_STR && r->kind == TY_STR) {
		e->type = ty_str(s, l->size > r->size ? l->size : r->size);
		return true;
	}
	if (l->kind == TY_BUF && r->kind == TY_BUF) { /* the larger; each arm writes its length */
		e->type = ty_simple(s, TY_BUF, l->size > r->size ? l->size : r->size);
		return true;
	}
	return sema_error_late(s, e->loc, "the two branches of ?: differ: %s and %s", tn(l), tn(r));
}

static bool cast_type(const char *name, int *bits, bool *sign)
{
	static const struct {
		const char *n;
		int bits;
		bool sign;
	} casts[] = {{"int8", 8, 1},   {"int16", 16, 1},  {"int32", 32, 1}, {"int64", 64, 1},
		     {"uint8", 8, 0},  {"uint16", 16, 0}, {"uint32", 32, 0}, {"uint64", 64, 0},
		     {"int", 32, 1},   {"uint", 32, 0},   {"char", 8, 1}};
	for (size_t i = 0; i < sizeof(casts) / sizeof(casts[0]); i++)
		if (!strcmp(casts[i].n, name)) {
			*bits = casts[i].bits;
			*sign = casts[i].sign;
			return true;
		}
	return false;
}

bool sema_cast(Sema *s, Expr *e)
{
	if (!e->name)
		return sema_typeof_cast(s, e);
	int bits;
	bool sign;
	bool to_int = cast_type(e->name, &bits, &sign);
	const SemaHooks *h = sema_hooks(s);
	if (h->cast && !h->cast(s, e, to_int))
		return false;
	if (!to_int)
		return sema_ctype_cast(s, e);
	if (!sema_need_int(s, e->a, "the value of a cast"))
		return false;
	e->type = ty_int(s, bits, sign);
	return true;
}

bool sema_sizeof(Sema *s, Expr *e)
{
	int bits;
	bool sign;
	if (e->sval) /* offsetof(type, a.b) */
		return sema_ctype_offsetof(s, e);
	if (e->name) {
		if (!cast_type(e->name, &bits, &sign))
			return sema_ctype_sizeof(s, e);
		e->ival = (uint64_t)bits / 8;
	} else {
		return sema_ctype_sizeof(s, e);
	}
	e->type = ty_int(s, 64, false);
	return true;
}
