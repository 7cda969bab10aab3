/* D in semantic analysis: its hooks (sema_d.c) and the words and rules of
 * its messages other D files share. */
#pragma once
#include "../compile/sema_hooks.h"

extern const SemaHooks d_sema_hooks;

/* *t = the declared type of variable `name` ("`x", "self->x", "this->x"),
 * NULL without a declaration; false when it is unknown */
bool sema_d_declared(Sema *s, const char *name, Type **t);
/* D's operands have incompatible types: "int" = "string" */
bool sema_d_incompat(Sema *s, Loc loc, const Type *var, const Type *val);
/* false (error set) when an lquantize/llquantize aggregation gets a second
 * shape, in DTrace's words (sema_agg_d.c) */
bool sema_d_agg_mismatch(Sema *s, const Type *old, const Type *t, Loc loc);
