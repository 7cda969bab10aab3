/* exit(): bpftrace's end of the run (0.26's exit(code) too), its type
 * rule and code generation
 * (D's exit(N), which carries a status and lets the clause go on, is D's
 * own row: dtrace/dfunc_trace.c). */
#include "../compile/codegen.h"

static bool check_exit(Sema *s, Expr *c)
{
	(void)s;
	(void)c;
	return true;
}

/* the control flag survives a full ring buffer, where the event may not;
 * nothing after exit() runs */
static void gen_exit(Gen *g, const Expr *e)
{
	(void)e;
	emit_ld_map_value(g, BPF_REG_1, R_CONTROL, 0);
	emit(g, I_ST(BPF_DW, BPF_REG_1, 0, 1));
	gen_simple_event(g, event_new(g, EV_EXIT, 0));
	emit_goto(g, g->exit_label);
}

/* bpftrace 0.26's exit([code]): sonde's exit status */
static bool check_exit_code(Sema *s, Expr *c)
{
	return !c->args.n || sema_arg_int(s, c, 0);
}

/* the event carries the code (the runtime's exit status) */
static void gen_exit_code(Gen *g, const Expr *e)
{
	if (!e->args.n) {
		gen_exit(g, e);
		return;
	}
	emit_ld_map_value(g, BPF_REG_1, R_CONTROL, 0);
	emit(g, I_ST(BPF_DW, BPF_REG_1, 0, 1));
	gen_args_event(g, EV_EXIT, e, 0);
	emit_goto(g, g->exit_label);
}

static const FuncDef exit_funcs[] = {
	{"exit", FK_STMT, 0, 0, check_exit, .gen_stmt = gen_exit},
	{"exit", FK_STMT, 0, 1, check_exit_code, .gen_stmt = gen_exit_code,
	 .sets = FSET_BT_STDLIB},
};
BUILTINS(exit_funcs)
