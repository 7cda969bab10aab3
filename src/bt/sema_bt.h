/* The bpftrace dialect in semantic analysis: its hooks (sema_bt.c) and its
 * operator and condition checks, in its words (sema_ops_bt.c). */
#pragma once
#include "../compile/sema_hooks.h"

extern const SemaHooks bt_sema_hooks;

bool sema_bt_binop_ptr(Sema *s, Expr *e);   /* a pointer operand */
bool sema_bt_binop_types(Sema *s, Expr *e); /* not two integers */
bool sema_bt_unop(Sema *s, Expr *e, const char *op);
bool sema_bt_cond(Sema *s, Expr *c, CondKind where);
bool sema_bt_ternary(Sema *s, Expr *e);     /* its arms and condition */
