/* bpftrace's Python stacks: the pystack variable and jstack(), registered
 * with the core's tables (compile/builtin.h, compile/sema_hooks.h); their
 * value is walked by codegen_pystack.c and printed by pystack_format.c. */
#include "../compile/sema_hooks.h"
#include "pystack.h"

/* jstack([nframes[, strsize]]): DTrace's names; strsize cuts each line */
static bool check_jstack(Sema *s, Expr *c)
{
	int64_t depth = PYSTACK_DEPTH, strsize = 0;
	if (c->args.n > 0 && !sema_arg_literal_int(s, c, 0, &depth))
		return false;
	if (c->args.n > 1 && !sema_arg_literal_int(s, c, 1, &strsize))
		return false;
	if (depth < 1 || depth > 127)
		return sema_error(s, c->loc, "jstack(): the depth must be from 1 to 127");
	if (strsize < 0 || strsize > 4096)
		return sema_error(s, c->loc, "jstack(): strsize must be from 0 to 4096");
	return sema_pystack_type(s, c, (int)depth, (int)strsize);
}

static const FuncDef py_funcs[] = {
	{"jstack", F_NONE, FK_EXPR, 0, 2, check_jstack, .gen_into = py_gen_jstack_into},
};

BUILTINS(py_funcs)

/* pystack: jstack() with its defaults */
static bool check_pystack(Sema *s, Expr *e)
{
	return sema_pystack_type(s, e, PYSTACK_DEPTH, 0);
}

static const BuiltinDef py_vars[] = {
	{"pystack", B_FAMILY, TY_PYSTACK, 0, false, check_pystack, py_gen_jstack_into},
};

BUILTIN_VARS(py_vars)
