/* bpftrace 0.26's comm(pid): the name of the process `pid` (its main
 * thread's task: the pid as sonde's PID namespace sees it), empty when no
 * task has that pid.  The task comes from the kernel's bpf_task_from_pid
 * kfunc (a reference, released after its comm is read); comm and comm()
 * stay the core's variable.  Its type rule and code. */
#include <bpf/btf.h>
#include <string.h>

#include "../compile/codegen.h"
#include "../compile/sema_hooks.h"
#include "../sym/btf_load.h"

#define COMM_SIZE 16

/* the kernel's ids this needs: the two kfuncs', comm's offset in task_struct */
typedef struct TaskIds {
	int from_pid, release, comm_off;
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

/* comm() is the variable comm; comm(pid) the task's name (aux, aux2: the
 * kfuncs' BTF ids; ival: comm's offset) */
static bool check_comm(Sema *s, Expr *c)
{
	if (!c->args.n) {
		c->kind = E_BUILTIN;
		return sema_builtin(s, c);
	}
	TaskIds ids = {0};
	if (!sema_arg_int(s, c, 0) || !task_ids(s, c, &ids))
		return false;
	c->aux = ids.from_pid;
	c->aux2 = ids.release;
	c->ival = (uint64_t)ids.comm_off;
	c->type = ty_str(s, COMM_SIZE);
	return true;
}

static void gen_comm_pid(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	int task = stack_push(g), none = label_new(g);
	emit_memzero(g, dst_off, dt->size);
	gen_int(g, e->args.v[0]);
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_0));
	emit_kfunc_call(g, e->aux);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, none);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, task));
	emit_scratch_ptr(g, BPF_REG_1, dst_off);
	emit(g, I_MOV64_IMM(BPF_REG_2, COMM_SIZE));
	emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_0));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, (int32_t)e->ival));
	emit_call(g, BPF_FUNC_probe_read_kernel_str);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, task));
	emit_kfunc_call(g, e->aux2);
	label_place(g, none);
	stack_pop(g);
}

static const FuncDef comm_funcs[] = {
	{"comm", FK_EXPR, 0, 1, check_comm, .gen_into = gen_comm_pid, .sets = FSET_BT_STDLIB},
};
BUILTINS(comm_funcs)
