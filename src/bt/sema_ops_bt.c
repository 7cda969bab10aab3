/* bpftrace 0.17's checks of operators and conditions, in its words, at its
 * places and in its passes (the bpftrace dialect only; D keeps C's rules):
 * what it refuses and says, found by running bpftrace 0.17 on bad programs
 * (tests/compat/cases/errs_ops_*). */
#include "sema_bt.h"

#include <stdio.h>
#include <string.h>

/* where bpftrace puts an error about two operands: from the left one's
 * place (a binary operator's is its operator) */
static Loc operands_loc(const Expr *e)
{
	return e->a->loc;
}

/* bpftrace's binop_ptr(): a pointer takes an integer added (either side)
 * or subtracted (on the right), and compares with a pointer or integer;
 * anything else is refused in its first pass */
bool sema_bt_binop_ptr(Sema *s, Expr *e)
{
	const Type *l = e->a->type, *r = e->b->type;
	bool lp = type_is_ptr(l), rp = type_is_ptr(r);
	const Type *other = lp ? r : l;
	bool cmp = e->op >= OP_EQ && e->op <= OP_GE;
	bool ok = cmp && (type_is_ptr(other) || other->kind == TY_INT);
	if (!type_is_ptr(other) && other->kind == TY_INT)
		ok |= e->op == OP_ADD || (e->op == OP_SUB && lp);
	if (!ok)
		return sema_error(s, e->loc, "The %s operator can not be used on expressions of types "
				  "%s, %s", op_str(e->op), bpf_tn(l), bpf_tn(r));
	if (lp && rp && !type_equal(l->pointee, r->pointee)) {
		char a[128], b[128];
		sema_warn(s, operands_loc(e), "comparison of distinct pointer types ('%s, '%s')",
			  type_name(l->pointee, a, sizeof(a)), type_name(r->pointee, b, sizeof(b)));
	}
	return true;
}

/* operands that are not two integers (nor two arrays): a type mismatch, or
 * an operator the type does not take (only == and != take two strings) */
bool sema_bt_binop_types(Sema *s, Expr *e)
{
	const Type *l = e->a->type, *r = e->b->type;
	if (l->kind != r->kind)
		return sema_error_late(s, operands_loc(e), "Type mismatch for '%s': comparing '%s' "
				       "with '%s'", op_str(e->op), bpf_tn(l), bpf_tn(r));
	if (e->op != OP_EQ && e->op != OP_NE)
		return sema_error_late(s, e->loc, "The %s operator can not be used on expressions of "
				       "types %s, %s", op_str(e->op), bpf_tn(l), bpf_tn(r));
	return true;
}

/* -x, ~x, !x of an integer only; ++ and -- of an integer or pointer */
bool sema_bt_unop(Sema *s, Expr *e, const char *op)
{
	const Type *t = e->a->type;
	bool ptr_ok = e->kind == E_INCDEC;
	if (t->kind == TY_NONE || (t->kind == TY_INT && (!t->pointee || ptr_ok)))
		return true;
	/* bpftrace 0.17 finds !"str" in its first pass, the rest in its last */
	bool first = e->kind == E_UNOP && e->op == OP_LNOT && t->kind == TY_STR;
	return (first ? sema_error : sema_error_late)(s, e->loc, "The %s operator can not be used on "
						       "expressions of type '%s'", op, bpf_tn(t));
}

/* a predicate (an integer or a pointer), an if() or a ?: condition (an
 * integer); bpftrace places the if()'s error at 1:1, with no underline */
bool sema_bt_cond(Sema *s, Expr *c, CondKind where)
{
	const Type *t = c->type;
	if (t->kind == TY_NONE || (t->kind == TY_INT && (!t->pointee || where == COND_PRED)))
		return true;
	if (where == COND_PRED)
		return sema_error_late(s, c->loc, "Invalid type for predicate: %s", bpf_kind(t));
	if (where == COND_IF)
		return sema_error_late(s, (Loc){.line = 1, .col = 1, .bare = true},
				       "Invalid condition in if(): %s", bpf_kind(t));
	return sema_error_late(s, c->loc, "Invalid condition in ternary: %s", bpf_kind(t));
}

/* ?:'s arms: of one kind (final pass), and that kind an integer or a
 * string (its first pass) */
bool sema_bt_ternary(Sema *s, Expr *e)
{
	const Type *l = e->b->type, *r = e->c->type;
	bool ok = true;
	if (strcmp(bpf_kind(l), bpf_kind(r)))
		ok = sema_error_late(s, e->a->loc, "Ternary operator must return the same type: have "
				     "'%s' and '%s'", bpf_kind(l), bpf_kind(r));
	if (!sema_bt_cond(s, e->a, COND_TERNARY))
		ok = false;
	if (l->kind != TY_INT || l->pointee) {
		if (l->kind != TY_STR && !(l->kind == TY_BUF && sema_hooks(s)->ternary_buffers))
			ok = sema_error(s, e->a->loc, "Ternary return type unsupported %s", bpf_kind(l));
	}
	return ok;
}
