/* The current task's ids as bpftrace 0.26 asks them: pid([curr_ns|init])
 * and tid([curr_ns|init]), in sonde's own PID namespace (curr_ns, the
 * default) or in the initial one; each one's type rule and code.  0.26's
 * bare variables pid and tid are pid(curr_ns) and tid(curr_ns) (rows of
 * FSET_BT_STDLIB); 0.17's are the core's (sema_builtin.c), the initial
 * namespace's. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "../compile/codegen.h"
#include "../compile/sema_hooks.h"

/* the kernel's inode number of the initial PID namespace (PROC_PID_INIT_INO) */
#define PID_NS_INIT_INO 0xeffffffcULL

typedef enum PidNsMode { PIDNS_INIT, PIDNS_OTHER } PidNsMode;

/* sonde's own PID namespace: in aux, PIDNS_INIT when it is the initial
 * one (its ids are those the kernel's pid_tgid gives), else PIDNS_OTHER
 * with the namespace's device and inode in ival (high and low 32 bits:
 * the kernel's namespace inodes are 32-bit; aux2 stays free for the
 * variables' B_FAMILY) */
static bool own_pid_ns(Sema *s, Expr *c, Loc loc)
{
	struct stat st;
	if (stat("/proc/self/ns/pid", &st))
		return sema_error(s, loc, "cannot read sonde's PID namespace (/proc/self/ns/pid): "
				  "%s", strerror(errno));
	c->aux = st.st_ino == PID_NS_INIT_INO ? PIDNS_INIT : PIDNS_OTHER;
	c->ival = (uint64_t)(uint32_t)st.st_dev << 32 | (uint32_t)st.st_ino;
	return true;
}

/* f([curr_ns | init]): the namespace is a bare word */
static bool check_ns_id(Sema *s, Expr *c)
{
	c->type = ty_int(s, 32, false);
	if (!c->args.n)
		return own_pid_ns(s, c, c->loc);
	const Expr *m = c->args.v[0];
	if (m->kind == E_BUILTIN && !strcmp(m->name, "init")) {
		c->aux = PIDNS_INIT;
		return true;
	}
	if (m->kind == E_BUILTIN && !strcmp(m->name, "curr_ns"))
		return own_pid_ns(s, c, m->loc);
	return sema_error(s, m->loc, "Invalid PID namespace mode: %s() takes curr_ns or init",
			  c->name);
}

/* r0 = the ids as pid_tgid packs them: the tgid in the high half */
static void gen_pid_tgid(Gen *g, const Expr *e)
{
	if (e->aux == PIDNS_INIT) {
		emit_call(g, BPF_FUNC_get_current_pid_tgid);
		return;
	}
	/* struct bpf_pidns_info { u32 pid; u32 tgid; }: pid is the thread's */
	int info = scratch_alloc(g, 8);
	emit_ld_imm64(g, BPF_REG_1, e->ival >> 32);
	emit_ld_imm64(g, BPF_REG_2, e->ival & 0xffffffffu);
	emit_scratch_ptr(g, BPF_REG_3, info);
	emit(g, I_MOV64_IMM(BPF_REG_4, 8));
	emit_call(g, BPF_FUNC_get_ns_current_pid_tgid);
	emit_ldx(g, BPF_W, BPF_REG_1, R_SCR, info);
	emit_ldx(g, BPF_W, BPF_REG_0, R_SCR, info + 4);
	emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_0, 32));
	emit(g, I_ALU64_REG(BPF_OR, BPF_REG_0, BPF_REG_1));
}

static void gen_pid(Gen *g, const Expr *e)
{
	gen_pid_tgid(g, e);
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
}

static void gen_tid(Gen *g, const Expr *e)
{
	gen_pid_tgid(g, e);
	emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_0, 32));
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
}

static const FuncDef pidns_funcs[] = {
	{"pid", FK_EXPR, 0, 1, check_ns_id, .gen_int = gen_pid, .sets = FSET_BT_STDLIB},
	{"tid", FK_EXPR, 0, 1, check_ns_id, .gen_int = gen_tid, .sets = FSET_BT_STDLIB},
};
BUILTINS(pidns_funcs)

/* the variables: the ids in sonde's own namespace, as pid() and tid() */
static bool check_ns_var(Sema *s, Expr *e)
{
	e->args.n = 0;
	return check_ns_id(s, e);
}

static const BuiltinDef pidns_vars[] = {
	{"pid", B_FAMILY, TY_INT, 32, false, .check = check_ns_var, .gen_int = gen_pid,
	 .sets = FSET_BT_STDLIB},
	{"tid", B_FAMILY, TY_INT, 32, false, .check = check_ns_var, .gen_int = gen_tid,
	 .sets = FSET_BT_STDLIB},
};
BUILTIN_VARS(pidns_vars)
