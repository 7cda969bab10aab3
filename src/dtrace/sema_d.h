/* D in semantic analysis: its hooks (sema_d.c) and the words and rules of
 * its messages other D files share. */
#pragma once
#include "../compile/sema_hooks.h"

extern const SemaHooks d_sema_hooks;

/* *t = the declared type of variable `name` ("`x", "self->x", "this->x"),
 * NULL without a declaration; false when it is unknown */
bool sema_d_declared(Sema *s, const char *name, Type **t);
/* D's words for a value's type ("int", "string", "char *") */
const char *sema_d_type_name(const Type *t, char *buf, size_t n);
/* whether C's usual arithmetic conversions of l and r give a signed type */
bool sema_d_arith_signed(const Type *l, const Type *r);
/* D's operands have incompatible types: "int" = "string" */
bool sema_d_incompat(Sema *s, Loc loc, const Type *var, const Type *val);
/* D's argN in a syscall tracepoint: its offset in the record, -1
 * elsewhere; absent: past the record of a syscall with fewer arguments */
int d_syscall_arg_offset(const ProbeSpec *spec, int n);
bool d_syscall_arg_absent(const ProbeSpec *spec, int n);
/* D's printf(), system() formats (sema_format_d.c): the arguments against
 * the conversions; an integer conversion rewritten to take the value's size */
bool sema_format_d(Sema *s, Expr *call);
void d_widen_conv(FmtPiece *p, const Type *t);
/* printf(): D's conversions, or the widths trace() wrote (SemaHooks) */
bool sema_d_printf(Sema *s, Expr *c);
/* false (error set) when an lquantize/llquantize aggregation gets a second
 * shape, in DTrace's words (sema_agg_d.c) */
bool sema_d_agg_mismatch(Sema *s, const Type *old, const Type *t, Loc loc);
/* == and != of a string and NULL: a comparison with "" (sema_null_d.c) */
bool sema_d_binop_null(Sema *s, Expr *e);
