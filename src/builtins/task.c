/* The running task, its relatives and the machine, as bpftrace 0.26 names
 * them: ppid, pcomm, leader_tid, leader_comm (of curtask, or of a task
 * given), usermode, ncpus; each one's type rule and code generation. */
#include <bpf/libbpf.h>

#include "../compile/codegen.h"
#include "../compile/sema_hooks.h"

/* --- a task's relatives: bpftrace's stdlib macros over task_struct ----- */

static Expr *field_of(Sema *s, Expr *a, const char *name, Loc loc)
{
	Expr *f = expr_new(s->sc->ast, E_FIELD, loc);
	f->a = a;
	f->arrow = true;
	f->name = (char *)name;
	return f;
}

/* f([task]) is task->LINK->MEMBER (curtask's without a task): the call
 * becomes that expression, typed from kernel BTF, once; later passes see
 * the fields */
static bool relative_field(Sema *s, Expr *c, const char *link, const char *member)
{
	Expr *task = c->args.n ? c->args.v[0] : expr_new(s->sc->ast, E_BUILTIN, c->loc);
	if (!c->args.n)
		task->name = "curtask";
	*c = *field_of(s, field_of(s, task, link, c->loc), member, c->loc);
	return sema_expr(s, c);
}

static bool check_ppid(Sema *s, Expr *c)
{
	return relative_field(s, c, "real_parent", "tgid");
}

static bool check_pcomm(Sema *s, Expr *c)
{
	return relative_field(s, c, "real_parent", "comm");
}

static bool check_leader_tid(Sema *s, Expr *c)
{
	return relative_field(s, c, "group_leader", "pid");
}

static bool check_leader_comm(Sema *s, Expr *c)
{
	return relative_field(s, c, "group_leader", "comm");
}

static const FuncDef task_funcs[] = {
	{"ppid", FK_EXPR, 0, 1, check_ppid, .sets = FSET_BT_STDLIB},
	{"pcomm", FK_EXPR, 0, 1, check_pcomm, .sets = FSET_BT_STDLIB},
	{"leader_tid", FK_EXPR, 0, 1, check_leader_tid, .sets = FSET_BT_STDLIB},
	{"leader_comm", FK_EXPR, 0, 1, check_leader_comm, .sets = FSET_BT_STDLIB},
};
BUILTINS(task_funcs)

/* the variables: the same, of curtask (a row without a check is typed
 * by its columns: usermode, ncpus) */
static bool var_as_call(Sema *s, Expr *e, bool (*check)(Sema *, Expr *))
{
	e->args.n = 0;
	return check(s, e);
}

static bool var_ppid(Sema *s, Expr *e)
{
	return var_as_call(s, e, check_ppid);
}

static bool var_pcomm(Sema *s, Expr *e)
{
	return var_as_call(s, e, check_pcomm);
}

static bool var_leader_tid(Sema *s, Expr *e)
{
	return var_as_call(s, e, check_leader_tid);
}

static bool var_leader_comm(Sema *s, Expr *e)
{
	return var_as_call(s, e, check_leader_comm);
}

/* --- usermode, ncpus -------------------------------------------------- */

/* the privilege level of the code the probe interrupted (x86-64: cs's low
 * bits are 3 in user mode): its registers when the context holds them,
 * else those the task entered the kernel with (BEGIN, tracepoints) */
static void gen_usermode(Gen *g, const Expr *e)
{
	(void)e;
	int cs = pt_regs_offset("cs");
	if (g->spec->prov->ctx == CTX_REGS || g->spec->prov->ctx == CTX_PERF) {
		emit(g, I_LDX(BPF_DW, BPF_REG_0, R_CTX, cs)); /* perf: its regs come first */
	} else {
		emit_call(g, BPF_FUNC_get_current_task_btf);
		emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_0));
		emit_call(g, BPF_FUNC_task_pt_regs);
		emit(g, I_LDX(BPF_DW, BPF_REG_0, BPF_REG_0, cs));
	}
	emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_0, 3));
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 1)); /* 3 -> 1, 0 -> 0 */
}

/* the possible CPUs, known when the program is made */
static void gen_ncpus(Gen *g, const Expr *e)
{
	(void)e;
	int n = libbpf_num_possible_cpus();
	emit(g, I_MOV64_IMM(BPF_REG_0, n > 0 ? n : 1));
}

static const BuiltinDef task_vars[] = {
	{"ppid", B_FAMILY, TY_INT, 64, false, var_ppid, .sets = FSET_BT_STDLIB},
	{"pcomm", B_FAMILY, TY_STR, 16, false, var_pcomm, .sets = FSET_BT_STDLIB},
	{"leader_tid", B_FAMILY, TY_INT, 64, false, var_leader_tid, .sets = FSET_BT_STDLIB},
	{"leader_comm", B_FAMILY, TY_STR, 16, false, var_leader_comm, .sets = FSET_BT_STDLIB},
	{"usermode", B_FAMILY, TY_INT, 8, false, .gen_int = gen_usermode, .sets = FSET_BT_STDLIB},
	{"ncpus", B_FAMILY, TY_INT, 64, false, .gen_int = gen_ncpus, .sets = FSET_BT_STDLIB},
};
BUILTIN_VARS(task_vars)
