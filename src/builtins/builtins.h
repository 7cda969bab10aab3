/* What the front ends' own functions share with the core's families
 * (src/builtins/): D's sym(), func() and mod() make ksym()'s value, its
 * usym(), ufunc(), umod() and uaddr() usym()'s (dtrace/dfunc_sym.c), its
 * stack() and ustack() kstack()'s and ustack()'s, its system() bpftrace's
 * system()'s (its format checked D's way); and the families share
 * builtin_gen_int_into among themselves. */
#pragma once
#include "../compile/builtin.h"

void builtin_gen_int_into(struct Gen *g, const Expr *e, int dst_off, const Type *dt);
void builtin_gen_ksym_into(struct Gen *g, const Expr *e, int dst_off, const Type *dt);
void builtin_gen_usym_into(struct Gen *g, const Expr *e, int dst_off, const Type *dt);
void builtin_gen_stack_into(struct Gen *g, const Expr *e, int dst_off, const Type *dt);
void builtin_gen_system(struct Gen *g, const Expr *e);
