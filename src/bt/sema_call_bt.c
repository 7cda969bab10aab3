/* The bpftrace dialect's words for the arguments of its functions, which
 * the core and the families ask for through bt_sema_hooks
 * (compile/sema_hooks.h: not_literal, not_map, print_arg,
 * print_value_args): bpftrace 0.17's messages, at its places and in its
 * passes. */
#include <string.h>

#include "sema_bt.h"

/* an argument that is not the literal wanted, naming what it is ("none"
 * for an undefined variable); time() and strftime() check theirs in
 * bpftrace's final pass, the others in its first */
bool sema_bt_not_literal(Sema *s, Expr *call, Expr *a, const char *want)
{
	const char *kind = "none";
	if (sema_expr(s, a))
		kind = bpf_kind(a->type);
	else if (!a->none || !s->all)
		return false;
	bool late = !strcmp(call->name, "time") || !strcmp(call->name, "strftime");
	return (late ? sema_error_late : sema_error)(s, call->loc, "%s() expects a %s literal (%s "
						     "provided)", call->name, want, kind);
}

/* an argument that is not a map, or a map with keys where a whole one is
 * wanted: the error at the call */
bool sema_bt_not_map(Sema *s, Expr *call, bool indexed)
{
	if (indexed)
		return sema_error(s, call->loc, "The map passed to %s() should not be indexed by a key",
				  call->name);
	return sema_error(s, call->loc, "%s() expects a map to be provided", call->name);
}

/* print(@m, top, div): bpftrace checks each argument (an undefined variable
 * in its first pass) and then, in its final pass, that it is a literal */
bool sema_bt_print_arg(Sema *s, Expr *c, int i)
{
	Expr *a = c->args.v[i];
	if (a->kind == E_INT || (a->kind == E_UNOP && a->op == OP_NEG && a->a->kind == E_INT))
		return true;
	if (!sema_expr(s, a))
		return false;
	return sema_error_late(s, c->loc, "print() expects a integer literal (%s provided)",
			       bpf_kind(a->type));
}

bool sema_bt_print_value_args(Sema *s, Expr *c)
{
	return sema_error(s, c->loc, "Non-map print() only takes 1 argument, %d found", c->args.n);
}
