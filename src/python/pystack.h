/* Python stacks in scripts: the pystack variable and jstack(), their type
 * rule (builtin_pystack.c) and the walk of the frames in BPF
 * (codegen_pystack.c).  bpftrace's rows are builtin_pystack.c's; D's
 * jstack() row (src/dtrace) calls these too. */
#pragma once
#include "../compile/codegen.h"

struct PyTarget;

/* pystack's depth, jstack()'s default in bpftrace */
#define PYSTACK_DEPTH 32
/* a Python stack's type rule: e's type, a stack of depth frames, each
 * line cut at line_max bytes (0: whole), when the run found the target's
 * interpreter (Options.py) */
bool sema_pystack_type(Sema *s, Expr *e, int depth, int line_max);
/* e walks Python stacks: a pystack variable, a call of a jstack() row */
bool py_expr_walks_stack(const Expr *e);
/* Before the compile: the interpreter of the run's target (the -p
 * process, the -c program or /usr/bin/python3.11) found and checked when
 * the program walks Python stacks, else NULL.  Freed with py_target_free(). */
struct PyTarget *py_target_find(const Program *ast, const ProbeTarget *target);
void py_target_free(struct PyTarget *t);

/* a jstack row's and pystack's code (FuncDef.gen_into): the value at
 * scratch dst_off, the Python frames, then for D's jstack()
 * (Type.stack_native) the native ones */
void py_gen_jstack_into(Gen *g, const Expr *e, int dst_off, const Type *dt);
