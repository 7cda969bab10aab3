/* bpftrace's Python stacks: the pystack variable and jstack(), registered
 * with the core's tables (compile/builtin.h, compile/sema_hooks.h); their
 * value is walked by codegen_pystack.c and printed by pystack_format.c. */
#include <string.h>

#include "../compile/sema_hooks.h"
#include "../sym/pylayout.h"
#include "pystack.h"

/* The layout was found before the compile (py_target.c): sema only reads
 * it, and says why there is none at the first use. */
bool sema_pystack_type(Sema *s, Expr *e, int depth, int line_max)
{
	const PyTarget *py = s->sc->opt.py;
	if (!py || !py->ok)
		return sema_error(s, e->loc, "%s: %s", e->name,
				  py ? py->err : "the run did not look for the target's CPython");
	s->sc->py = &py->layout;
	e->type = ty_simple(s, TY_PYSTACK, pystack_size(depth));
	e->type->stack_depth = depth;
	e->type->line_max = line_max;
	return true;
}

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
	{"jstack", FK_EXPR, 0, 2, check_jstack, .gen_into = py_gen_jstack_into},
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

bool py_expr_walks_stack(const Expr *e)
{
	if (e->kind == E_BUILTIN)
		return !strcmp(e->name, py_vars[0].name);
	const FuncDef *f = e->kind == E_CALL ? func_find(e->name) : NULL;
	return f && f->gen_into == py_gen_jstack_into;
}
