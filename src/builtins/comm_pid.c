/* bpftrace 0.26's comm(pid): the name of the process `pid` (the pid as
 * the initial PID namespace numbers it).  The task comes from the kernel's
 * bpf_task_from_pid kfunc (a reference, released after its comm is read);
 * when the kernel finds no task, the name is "N/A" and a warning says
 * "No such process (pid=N)", as bpftrace's stdlib macro does.  comm and
 * comm() stay the core's variable.  Its type rule and code. */
#include <bpf/btf.h>
#include <string.h>

#include "../compile/codegen.h"
#include "../compile/sema_hooks.h"
#include "../lang/diag.h"
#include "../sym/btf_load.h"

#define COMM_SIZE 16
#define NO_TASK_NAME "N/A"
#define NO_TASK_WARNING "No such process (pid=%d)"

/* what a call's code needs (its auxp): the kernel's ids (the two kfuncs',
 * comm's offset in task_struct) and the warning a missing task prints */
typedef struct TaskIds {
	int from_pid, release, comm_off;
	Fmt *warning;
	Type *pid_type;
} TaskIds;

static int comm_offset(const struct btf *b)
{
	int id = btf__find_by_name_kind(b, "task_struct", BTF_KIND_STRUCT);
	const struct btf_type *t = id > 0 ? btf__type_by_id(b, (__u32)id) : NULL;
	const struct btf_member *m = t ? btf_members(t) : NULL;
	for (int i = 0; t && i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(b, m[i].name_off), "comm"))
			return (int)(btf_member_bit_offset(t, (__u32)i) / 8);
	return -1;
}

static bool task_ids(Sema *s, Expr *c, TaskIds *ids)
{
	struct btf *b = btf_kernel(s->sc->opt.sym);
	if (!b)
		return sema_error(s, c->loc, "comm(pid) needs the kernel's BTF: %s",
				  btf_error(s->sc->opt.sym));
	ids->from_pid = btf__find_by_name_kind(b, "bpf_task_from_pid", BTF_KIND_FUNC);
	ids->release = btf__find_by_name_kind(b, "bpf_task_release", BTF_KIND_FUNC);
	ids->comm_off = comm_offset(b);
	if (ids->from_pid <= 0 || ids->release <= 0 || ids->comm_off < 0)
		return sema_error(s, c->loc, "comm(pid) needs the kernel's bpf_task_from_pid and "
				  "bpf_task_release kfuncs (Linux 6.2 or later, with BTF): not found in "
				  "this kernel");
	return true;
}

/* the warning's format, parsed once per call */
static Fmt *no_task_warning(Sema *s)
{
	Fmt *f = arena_alloc(&s->sc->arena, sizeof(Fmt));
	char msg[128];
	int off = 0;
	if (!fmt_parse(NO_TASK_WARNING, strlen(NO_TASK_WARNING), f, &off, msg, sizeof(msg)))
		return NULL;
	script_keep_fmt(s->sc, f);
	return f;
}

/* comm() is the variable comm; comm(pid) the task's name */
static bool check_comm(Sema *s, Expr *c)
{
	if (!c->args.n) {
		c->kind = E_BUILTIN;
		return sema_builtin(s, c);
	}
	TaskIds *ids = arena_alloc(&s->sc->arena, sizeof(TaskIds));
	if (!sema_arg_int(s, c, 0) || !task_ids(s, c, ids))
		return false;
	ids->warning = no_task_warning(s);
	ids->pid_type = ty_int(s, 32, true);
	c->auxp = ids;
	c->loc = loc_call_span(&s->sc->ast->src, c->loc);
	c->type = ty_str(s, COMM_SIZE);
	return true;
}

/* no task: "N/A", and the warning with the pid (kept at r10 + pid_slot) */
static void gen_no_task(Gen *g, const Expr *e, int dst_off, int pid_slot)
{
	const TaskIds *ids = e->auxp;
	emit_store_bytes(g, dst_off, NO_TASK_NAME, sizeof(NO_TASK_NAME));
	EventDesc *ev = event_new(g, EV_DIAG, 1);
	int idx = g->sc->events.n - 1, mark = g->scratch_top;
	ev->fmt = ids->warning;
	ev->text = "WARNING";
	ev->loc = e->loc;
	ev->argt[0] = ids->pid_type;
	ev->argoff[0] = ev->size;
	ev->size += 8;
	int rec = scratch_alloc(g, ev->size);
	emit_ld_imm64(g, BPF_REG_1, (uint64_t)idx);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_1, rec);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, pid_slot));
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_1, rec + 8);
	gen_event_send(g, rec, ev->size, false);
	g->scratch_top = mark;
}

static void gen_comm_pid(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	const TaskIds *ids = e->auxp;
	int task = stack_push(g), pid = stack_push(g), none = label_new(g), done = label_new(g);
	emit_memzero(g, dst_off, dt->size);
	gen_int(g, e->args.v[0]);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, pid));
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_0));
	emit_kfunc_call(g, ids->from_pid);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, none);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, task));
	emit_scratch_ptr(g, BPF_REG_1, dst_off);
	emit(g, I_MOV64_IMM(BPF_REG_2, COMM_SIZE));
	emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_0));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, ids->comm_off));
	emit_call(g, BPF_FUNC_probe_read_kernel_str);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, task));
	emit_kfunc_call(g, ids->release);
	emit_goto(g, done);
	label_place(g, none);
	gen_no_task(g, e, dst_off, pid);
	label_place(g, done);
	stack_pop(g);
	stack_pop(g);
}

static const FuncDef comm_funcs[] = {
	{"comm", FK_EXPR, 0, 1, check_comm, .gen_into = gen_comm_pid, .sets = FSET_BT_STDLIB},
};
BUILTINS(comm_funcs)
