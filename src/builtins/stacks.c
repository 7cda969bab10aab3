/* The stack functions: kstack([mode][, depth]) and ustack(...), each
 * one's type rule and code generation (a stack id from the stack map of
 * that depth; the runtime prints the frames).  D's stack() and
 * ustack() make the same values (builtin_gen_stack_into). */
#include <string.h>

#include "../compile/codegen.h"
#include "builtins.h"

static bool check_stack(Sema *s, Expr *c)
{
	bool user = c->name[0] == 'u', perf = false;
	int64_t depth = 127;
	int first = 0; /* kstack(MODE[, N]): MODE is bpftrace or perf */
	if (c->args.n && c->args.v[0]->kind == E_BUILTIN) {
		const Expr *m = c->args.v[0];
		if (strcmp(m->name, "perf") && strcmp(m->name, "bpftrace"))
			return sema_error(s, m->loc, "%s(): unknown stack mode '%s' (bpftrace or perf)",
					  c->name, m->name);
		perf = !strcmp(m->name, "perf");
		first = 1;
	}
	/* bpftrace 0.17's words for a string and for a depth past its own cap */
	if (c->args.n > first && c->args.v[first]->kind == E_STR)
		return sema_error(s, c->loc, "%s() expects a integer literal (string provided)", c->name);
	if (c->args.n > first && !sema_arg_literal_int(s, c, first, &depth))
		return false;
	if ((uint64_t)depth > 1024)
		return sema_error(s, c->loc, "%s([int limit]): limit shouldn't exceed 1024, %llu given",
				  c->name, (unsigned long long)depth);
	if (depth < 1 || depth > 127)
		return sema_error(s, c->loc, "%s(): the depth must be from 1 to 127", c->name);
	c->type = ty_simple(s, user ? TY_USTACK : TY_KSTACK, user ? 16 : 8);
	c->type->stack_depth = (int)depth;
	c->type->stack_perf = perf;
	s->sc->uses_kstack |= !user;
	s->sc->uses_ustack |= user;
	return true;
}

/* the stack's id (and, for a user stack, the process) */
void builtin_gen_stack_into(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	(void)dt;
	gen_stack_into(g, e->type->kind == TY_USTACK, e->type->stack_depth, dst_off);
}

static const FuncDef stack_funcs[] = {
	{"kstack", FK_EXPR, 0, 2, check_stack, .gen_into = builtin_gen_stack_into},
	{"ustack", FK_EXPR, 0, 2, check_stack, .gen_into = builtin_gen_stack_into},
};
BUILTINS(stack_funcs)
