/* The bpftrace dialect in semantic analysis: its hooks (sema_bt.c) and its
 * operator and condition checks, in its words (sema_ops_bt.c). */
#pragma once
#include "../compile/sema_hooks.h"

extern const SemaHooks bt_sema_hooks;     /* bpftrace 0.17 */
extern const SemaHooks bt_sema_hooks_026; /* bpftrace 0.26.1 */
/* 0.26's stack modes, by StackMode (lang/types.h): kstack(MODE), stack_mode */
extern const char *const bt_stack_modes_026[];

bool sema_bt_binop_ptr(Sema *s, Expr *e);   /* a pointer operand */
bool sema_bt_binop_types(Sema *s, Expr *e); /* not two integers */
bool sema_bt_unop(Sema *s, Expr *e, const char *op);
bool sema_bt_cond(Sema *s, Expr *c, CondKind where);
bool sema_bt_ternary(Sema *s, Expr *e);     /* its arms and condition */

/* its words for functions' arguments (sema_call_bt.c) */
bool sema_bt_not_literal(Sema *s, Expr *call, Expr *a, const char *want);
bool sema_bt_not_map(Sema *s, Expr *call, bool indexed);
bool sema_bt_print_arg(Sema *s, Expr *c, int i);
bool sema_bt_print_value_args(Sema *s, Expr *c);
