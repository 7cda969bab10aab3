/* Python stacks in scripts: the pystack variable and jstack(), their type
 * rule (builtin_pystack.c) and the walk of the frames in BPF
 * (codegen_pystack.c).  bpftrace's rows are builtin_pystack.c's; D's
 * jstack() row (src/dtrace) calls these too. */
#pragma once
#include "../compile/codegen.h"

/* a jstack row's and pystack's code (FuncDef.gen_into): the value at
 * scratch dst_off, the Python frames, then for D's jstack()
 * (Type.stack_native) the native ones */
void py_gen_jstack_into(Gen *g, const Expr *e, int dst_off, const Type *dt);
