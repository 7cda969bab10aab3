/* DTrace's typed probe arguments on Linux: the args[] of the proc, sched and
 * io providers and the translators behind them (psinfo_t, lwpsinfo_t,
 * bufinfo_t, devinfo_t, fileinfo_t, cpuinfo_t), written on the kernel's
 * task_struct and request as Oracle's dtrace-utils' translators read them.
 *
 * A translated member is sonde expression text in which @T stands for the
 * translated pointer (curtask for curpsinfo, a raw tracepoint argument for
 * args[N]) and @W for CLOCK_REALTIME - CLOCK_MONOTONIC; the text is parsed
 * with the D clause grammar into the program's arena where it is used. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/btf.h>

#include "../lang/ctypes.h"
#include "../lang/lexer.h"
#include "../sym/ksyms.h"
#include "../util/clock.h"
#include "dtrace.h"

typedef struct XMember {
	const char *name; /* "pr_pid", "pr_start.tv_sec" */
	const char *expr;
} XMember;

typedef struct XType {
	const char *name; /* "psinfo_t" */
	const XMember *m;
	const char *base; /* a variant's type: members not in m are base's */
} XType;

/* --- translators ------------------------------------------------------------- */

/* TASK_* bits of __state, as dtrace-utils maps them to Solaris' states:
 * 1|2 sleeping, 4|8 stopped, 0x10|0x20|0x80 zombie, 0x100|0x200 waiting;
 * a running task is on a CPU (SONPROC) or runnable (SRUN) */
#define STATE(s, t, z, w, o, r)                                                                 \
	"(char)((@T->__state & 3) ? " s " : (@T->__state & 12) ? " t " : (@T->__state & 0xb0) ? " z \
	" : (@T->__state & 0x300) ? " w " : @T->on_cpu ? " o " : " r ")"
#define START(t) "(int64_t)(((" t "->start_time + @W) / 1000000000))"
#define START_NS(t) "(int64_t)(((" t "->start_time + @W) % 1000000000))"

/* the arguments joined with spaces (__psargs, dtrace/dfunc_psargs.c): they
 * are in the process's memory, which BPF reads in the current task's
 * address space only: elsewhere (another process, a kernel thread) the
 * name of the program stands for them, as ps(1) does */
#define PSARGS(readable)                                                                      \
	"(@T->mm != 0 && " readable ") ? __psargs(@T->mm->arg_start, @T->mm->arg_end) : "  \
	"@T->group_leader->comm"

static const XMember psinfo[] = {
	{"pr_flag", "(int32_t)0"},
	{"pr_nlwp", "(int32_t)@T->signal->nr_threads"},
	{"pr_pid", "(int32_t)@T->tgid"},
	{"pr_ppid", "(int32_t)@T->real_parent->tgid"},
	{"pr_pgid", "(int32_t)@T->signal->pids[2]->numbers[0].nr"},
	{"pr_sid", "(int32_t)@T->signal->pids[3]->numbers[0].nr"},
	{"pr_uid", "(uint32_t)@T->cred->uid.val"},
	{"pr_euid", "(uint32_t)@T->cred->euid.val"},
	{"pr_gid", "(uint32_t)@T->cred->gid.val"},
	{"pr_egid", "(uint32_t)@T->cred->egid.val"},
	{"pr_addr", "(uint64_t)@T"},
	{"pr_start.tv_sec", START("@T->group_leader")},
	{"pr_start.tv_nsec", START_NS("@T->group_leader")},
	{"pr_fname", "@T->group_leader->comm"},
	{"pr_psargs", PSARGS("@T->mm == curtask->mm")},
	{"pr_wstat", "(int32_t)0"},
	{"pr_argc", "(int32_t)0"},
	{"pr_argv", "(uint64_t)(@T->mm ? @T->mm->arg_start : 0)"},
	{"pr_envp", "(uint64_t)(@T->mm ? @T->mm->env_start : 0)"},
	{"pr_dmodel", "(char)2"}, /* PR_MODEL_LP64 */
	{"pr_taskid", "(int32_t)0"},
	{"pr_projid", "(int32_t)0"},
	{"pr_nzomb", "(int32_t)0"},
	{"pr_poolid", "(int32_t)0"},
	{"pr_zoneid", "(int32_t)0"},
	{"pr_contract", "(int32_t)0"},
	{NULL, NULL},
};

static const XMember lwpsinfo[] = {
	{"pr_flag", "(int32_t)((@T->__state & 4) ? 1 : 0)"}, /* PR_STOPPED */
	{"pr_lwpid", "(int32_t)@T->pid"},
	{"pr_addr", "(uint64_t)@T"},
	{"pr_wchan", "(uint64_t)0"},
	{"pr_stype", "(char)0"},
	{"pr_state", STATE("1", "4", "3", "7", "6", "2")},
	{"pr_sname", STATE("83", "84", "90", "87", "79", "82")}, /* S T Z W O R */
	{"pr_nice", "(char)(@T->static_prio - 120)"},
	{"pr_pri", "(int32_t)@T->prio"},
	{"pr_start.tv_sec", START("@T")},
	{"pr_start.tv_nsec", START_NS("@T")},
	{"pr_name", "@T->comm"},
	{"pr_onpro", "(int32_t)@T->thread_info.cpu"},
	{"pr_bindpro", "(int32_t)(0 - 1)"},
	{"pr_bindpset", "(int32_t)(0 - 1)"},
	{NULL, NULL},
};

static const XMember cpuinfo[] = {
	{"cpu_id", "(int32_t)@T->thread_info.cpu"},
	{NULL, NULL},
};

/* a CPU given by its number */
static const XMember cpuinfo_id[] = {
	{"cpu_id", "(int32_t)(@T)"},
	{NULL, NULL},
};

/* struct request: cmd_flags' low bit is a write (op_is_write), 0x800 REQ_SYNC */
#define B_FLAGS "(((@T->cmd_flags & 1) ? 0x100 : 0x40) | ((@T->cmd_flags & 0x800) ? 0 : 0x400))"
static const XMember bufinfo[] = {
	{"b_flags", "(int32_t)" B_FLAGS},
	{"b_bcount", "(uint64_t)@T->__data_len"},
	{"b_addr", "(uint64_t)0"},
	{"b_lblkno", "(uint64_t)@T->__sector"},
	{"b_blkno", "(uint64_t)@T->__sector"},
	{"b_resid", "(uint64_t)0"},
	{"b_bufsize", "(uint64_t)@T->__data_len"},
	{"b_iodone", "(uint64_t)@T->end_io"},
	{"b_error", "(int32_t)0"},
	{"b_edev", "(uint64_t)(@T->part ? @T->part->bd_dev : 0)"},
	{NULL, NULL},
};

/* io:::done (block_rq_complete: arg1 the blk_status_t, arg2 the bytes
 * completed): B_ERROR and the errno of a failed request, as the kernel's
 * blk_status_to_errno() maps them (the numbering of Linux 6.10 and later;
 * 1..10 and 12 have not moved since 4.13), the bytes not transferred */
#define BLK_ERRNO                                                                             \
	"(arg1 == 0 ? 0 : arg1 == 1 ? 95 : arg1 == 2 ? 110 : arg1 == 3 ? 28 : arg1 == 4 ? 67 : " \
	"arg1 == 5 ? 121 : arg1 == 6 ? 52 : arg1 == 7 ? 61 : arg1 == 8 ? 84 : arg1 == 9 ? 12 : " \
	"arg1 == 12 ? 11 : arg1 == 13 ? 16 : arg1 == 14 ? 109 : arg1 == 15 ? 75 : "            \
	"arg1 == 16 ? 19 : arg1 == 17 ? 62 : arg1 == 19 ? 22 : 5)"
static const XMember bufinfo_done[] = {
	{"b_flags", "(int32_t)(" B_FLAGS " | (arg1 ? 0x4 : 0))"},
	{"b_error", "(int32_t)" BLK_ERRNO},
	{"b_resid", "(uint64_t)(@T->__data_len - (uint32_t)arg2)"},
	{NULL, NULL},
};

/* a partition's name is its device's (vda1), the driver the name of the
 * disk's parent device's driver (virtio_blk, sd) or of its module; a loop
 * device has no parent, a passthrough request no partition (read through
 * NULL, the clause would fault: <unknown> and 0 instead) */
#define DEV_NAME(d) "stringof(" d "->part0->bd_device.parent->driver->name)"
#define DEV_OWNER(d) "stringof(" d "->fops->owner->name)"
static const XMember devinfo[] = {
	{"dev_major", "(int32_t)(@T->part ? @T->part->bd_dev >> 20 : 0)"},
	{"dev_minor", "(int32_t)(@T->part ? @T->part->bd_dev & 0xfffff : 0)"},
	{"dev_instance", "(int32_t)0"},
	{"dev_name", "@T->q->disk && @T->q->disk->part0->bd_device.parent && "
		"@T->q->disk->part0->bd_device.parent->driver ? " DEV_NAME("@T->q->disk")
		" : @T->q->disk && @T->q->disk->fops->owner ? " DEV_OWNER("@T->q->disk")
		" : \"<none>\""},
	{"dev_statname", "@T->part ? stringof(@T->part->bd_device.kobj.name) : \"<unknown>\""},
	{"dev_pathname", "@T->part ? strjoin(\"/dev/\", stringof(@T->part->bd_device.kobj.name)) : "
		"\"<unknown>\""},
	{NULL, NULL},
};

/* a block request has no file on Linux, as in dtrace-utils */
static const XMember fileinfo[] = {
	{"fi_name", "\"<unknown>\""},
	{"fi_dirname", "\"<unknown>\""},
	{"fi_pathname", "\"<unknown>\""},
	{"fi_offset", "(int64_t)0"},
	{"fi_fs", "\"<unknown>\""},
	{"fi_mount", "\"<unknown>\""},
	{"fi_oflags", "(int32_t)0"},
	{NULL, NULL},
};

static const XType xtypes[] = {
	{"psinfo_t", psinfo, NULL},	{"lwpsinfo_t", lwpsinfo, NULL}, {"cpuinfo_t", cpuinfo, NULL},
	{"bufinfo_t", bufinfo, NULL},	{"devinfo_t", devinfo, NULL},	{"fileinfo_t", fileinfo, NULL},
	{"bufinfo_t@done", bufinfo_done, "bufinfo_t"},	{"cpuinfo_t@id", cpuinfo_id, "cpuinfo_t"},
};

static const XType *xtype_find(const char *name)
{
	for (size_t i = 0; i < sizeof(xtypes) / sizeof(xtypes[0]); i++)
		if (!strcmp(xtypes[i].name, name))
			return &xtypes[i];
	return NULL;
}

/* the translators' constants, as dtrace-utils' procfs.d, io.d and
 * signal.d define them, and DTrace's fault types */
static const struct {
	const char *name;
	int value;
} consts[] = {
	{"SSLEEP", 1},	    {"SRUN", 2},	{"SZOMB", 3},	    {"SSTOP", 4},
	{"SIDL", 5},	    {"SONPROC", 6},	{"SWAIT", 7},	    {"PR_STOPPED", 1},
	{"PR_MODEL_ILP32", 1}, {"PR_MODEL_LP64", 2}, {"CLD_EXITED", 1}, {"CLD_KILLED", 2},
	{"CLD_DUMPED", 3},  {"CLD_TRAPPED", 4}, {"CLD_STOPPED", 5}, {"CLD_CONTINUED", 6},
	{"B_BUSY", 0x1},    {"B_DONE", 0x2},	{"B_ERROR", 0x4},   {"B_PAGEIO", 0x10},
	{"B_PHYS", 0x20},   {"B_READ", 0x40},	{"B_WRITE", 0x100}, {"B_ASYNC", 0x400},
	/* dtrace:::ERROR's arg4 (dtrace/codegen_fault_d.c) */
	{"DTRACEFLT_UNKNOWN", DTRACEFLT_UNKNOWN},   {"DTRACEFLT_BADADDR", DTRACEFLT_BADADDR},
	{"DTRACEFLT_BADALIGN", DTRACEFLT_BADALIGN}, {"DTRACEFLT_ILLOP", DTRACEFLT_ILLOP},
	{"DTRACEFLT_DIVZERO", DTRACEFLT_DIVZERO},   {"DTRACEFLT_NOSCRATCH", DTRACEFLT_NOSCRATCH},
	{"DTRACEFLT_KPRIV", DTRACEFLT_KPRIV},       {"DTRACEFLT_UPRIV", DTRACEFLT_UPRIV},
	{"DTRACEFLT_TUPOFLOW", DTRACEFLT_TUPOFLOW}, {"DTRACEFLT_BADSTACK", DTRACEFLT_BADSTACK},
	{"DTRACEFLT_BADSIZE", DTRACEFLT_BADSIZE},   {"DTRACEFLT_BADINDEX", DTRACEFLT_BADINDEX},
	{"DTRACEFLT_LIBRARY", 1000},
};

bool d_args_const(const char *name, int *value)
{
	for (size_t i = 0; i < sizeof(consts) / sizeof(consts[0]); i++)
		if (!strcmp(consts[i].name, name)) {
			*value = consts[i].value;
			return true;
		}
	return false;
}

/* the function the tick's hrtimer runs (Linux 6.10 renamed it), 0 if none */
uint64_t d_args_tick_handler(SymCtx *sc)
{
	uint64_t a = ksym_addr(sc, "tick_nohz_handler");
	return a ? a : ksym_addr(sc, "tick_sched_timer");
}

/* --- probe signatures ---------------------------------------------------------- */

typedef struct DArg {
	const char *type;  /* as dtrace -lv prints it */
	const char *xlate; /* translated type, or NULL */
	const char *expr;  /* the value (xlate: the pointer translated), sonde text */
} DArg;

struct DArgSig {
	const char *prov, *name;
	const char *filter; /* what selects the probe's firings of its hook, or NULL */
	DArg args[4];
	const char *hook; /* the raw tracepoint of a probe with several, or NULL: any */
};

#define TASK(n) "((struct task_struct *)arg" #n ")"
#define CUR_LWPS {"lwpsinfo_t *", "lwpsinfo_t", "curtask"}
#define CUR_PS {"psinfo_t *", "psinfo_t", "curtask"}
#define LWPS(n) {"lwpsinfo_t *", "lwpsinfo_t", TASK(n)}
#define PS(n) {"psinfo_t *", "psinfo_t", TASK(n)}
#define RQ "((struct request *)arg0)"
#define CPU_OF_TASK(n) {"cpuinfo_t *", "cpuinfo_t", TASK(n)}
#define IO_ARGS(buf) {{"bufinfo_t *", buf, RQ}, {"devinfo_t *", "devinfo_t", RQ}, \
		 {"fileinfo_t *", "fileinfo_t", RQ}}

/* the child's first return from a clone-family call (0 only there) */
#if defined(__x86_64__)
#define CLONE_RET "arg1 == 0 && (((struct pt_regs *)arg0)->orig_ax == 56 || ((struct pt_regs *)arg0)->orig_ax == 57 || ((struct pt_regs *)arg0)->orig_ax == 58 || ((struct pt_regs *)arg0)->orig_ax == 435)"
#elif defined(__aarch64__)
#define CLONE_RET "arg1 == 0 && (((struct pt_regs *)arg0)->syscallno == 220 || ((struct pt_regs *)arg0)->syscallno == 435)"
#else
#define CLONE_RET "0"
#endif
#define EXIT_CODE TASK(0) "->exit_code"
#if defined(__x86_64__)
#define EXEC_FAIL "(int64_t)arg1 < 0 && (((struct pt_regs *)arg0)->orig_ax == 59 || ((struct pt_regs *)arg0)->orig_ax == 322)"
#elif defined(__aarch64__)
#define EXEC_FAIL "(int64_t)arg1 < 0 && (((struct pt_regs *)arg0)->syscallno == 221 || ((struct pt_regs *)arg0)->syscallno == 281)"
#else
#define EXEC_FAIL "0"
#endif

static const DArgSig sigs[] = {
	{"proc", "exec", NULL, {{"string", NULL, "str(((struct linux_binprm *)arg1)->filename)"}}},
	{"proc", "exec-success", NULL, {{0}}},
	/* execve/execveat returning an error: its errno */
	{"proc", "exec-failure", EXEC_FAIL, {{"int", NULL, "(int32_t)(0 - (int64_t)arg1)"}}},
	/* the last thread's exit (group_dead): CLD_EXITED, CLD_DUMPED or
	 * CLD_KILLED from the exit code */
	{"proc", "exit", "arg1 != 0", {{"int", NULL, "(int32_t)((" EXIT_CODE " & 0x7f) == 0 ? 1 : (" EXIT_CODE
				" & 0x80) ? 3 : 2)"}}},
	{"proc", "lwp-exit", NULL, {{0}}},
	/* a new process (its first thread), a new thread of this one */
	{"proc", "create", TASK(1) "->pid == " TASK(1) "->tgid", {PS(1)}},
	{"proc", "lwp-create", TASK(1) "->pid != " TASK(1) "->tgid", {LWPS(1), PS(1)}},
	{"proc", "start", CLONE_RET " && curtask->pid == curtask->tgid", {{0}}},
	{"proc", "lwp-start", CLONE_RET, {{0}}},
	/* signal_generate's result: 0 delivered, 1 ignored, 4 delivered without its info */
	{"proc", "signal-send", "arg4 == 0 || arg4 == 4", {LWPS(2), PS(2), {"int", NULL, "(int32_t)arg0"}}},
	{"proc", "signal-discard", "arg4 == 1", {LWPS(2), PS(2), {"int", NULL, "(int32_t)arg0"}}},
	{"proc", "signal-handle", NULL, {{"int", NULL, "(int32_t)arg0"}, {"siginfo_t *", NULL, "arg1"},
					 {"void (*)(void)", NULL, "((struct k_sigaction *)arg2)->sa.sa_handler"}}},
	{"sched", "off-cpu", NULL, {LWPS(2), PS(2)}},
	{"sched", "on-cpu", "arg0 != 0", {{0}}},
	{"sched", "remain-cpu", "arg0 == 0", {{0}}},
	/* DTrace's run queues hold the threads waiting for a CPU: a thread is
	 * enqueued when it wakes up or is preempted (it stays runnable: Linux
	 * schedules away from it in a preemption or in a running state) and
	 * dequeued when the dispatcher picks it to run.  Linux keeps the
	 * running task on its run queue, so those moments are sched_switch's
	 * prev and next (never the idle task, pid 0).  A queued task moved to
	 * another CPU (on_rq set, unlike a sleeper placed at wakeup) leaves
	 * its CPU's queue for the destination's. */
	{"sched", "enqueue", "(arg0 || arg3 == 0) && " TASK(1) "->pid != 0",
	 {LWPS(1), PS(1), CPU_OF_TASK(1)}, "sched_switch"},
	{"sched", "enqueue", TASK(0) "->on_rq != 0",
	 {LWPS(0), PS(0), {"cpuinfo_t *", "cpuinfo_t@id", "arg1"}}, "sched_migrate_task"},
	{"sched", "enqueue", NULL, {LWPS(0), PS(0), CPU_OF_TASK(0)}},
	{"sched", "dequeue", TASK(0) "->on_rq != 0", {LWPS(0), PS(0), CPU_OF_TASK(0)},
	 "sched_migrate_task"},
	{"sched", "dequeue", TASK(2) "->pid != 0", {LWPS(2), PS(2), CPU_OF_TASK(2)}},
	/* in the thread leaving the CPU: to sleep (blocking, not preempted) or
	 * preempted (still runnable) */
	{"sched", "sleep", "!arg0 && arg3 != 0", {{0}}},
	{"sched", "preempt", "(arg0 || arg3 == 0) && " TASK(1) "->pid != 0", {{0}}},
	{"sched", "wakeup", NULL, {LWPS(0), PS(0)}},
	/* the scheduler's clock tick (the tick hrtimer's expiry, whose
	 * handler calls sched_tick) in the thread it charges; surrender: a
	 * reschedule interrupt, another CPU telling this one to choose again,
	 * in the thread it interrupts */
	{"sched", "tick", "(uint64_t)((struct hrtimer *)arg0)->function == @K", {CUR_LWPS, CUR_PS}},
	{"sched", "surrender", NULL, {CUR_LWPS, CUR_PS}},
	/* the priority the tracepoint reports: the waiter's if it is higher */
	{"sched", "change-pri", NULL, {LWPS(0), PS(0), {"pri_t", NULL,
		"(int32_t)(arg1 && " TASK(1) "->prio < " TASK(0) "->normal_prio ? " TASK(1) "->prio : " TASK(0) "->normal_prio)"}}},
	{"io", "start", NULL, IO_ARGS("bufinfo_t")},
	{"io", "done", NULL, IO_ARGS("bufinfo_t@done")},
};

const DArgSig *d_args_of(const char *prov, const char *name, const char *hook)
{
	const char *tp = hook && strchr(hook, ':') ? strchr(hook, ':') + 1 : NULL;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (!strcmp(sigs[i].prov, prov) && !strcmp(sigs[i].name, name) &&
		    (!sigs[i].hook || !tp || !strcmp(sigs[i].hook, tp)))
			return &sigs[i];
	return NULL;
}

/* --- expressions from text ------------------------------------------------------ */

static void set_loc(Expr *e, Loc loc)
{
	if (!e)
		return;
	e->loc = loc;
	set_loc(e->a, loc);
	set_loc(e->b, loc);
	set_loc(e->c, loc);
	for (int i = 0; i < e->args.n; i++)
		set_loc(e->args.v[i], loc);
}

/* text with @T replaced by base, @W by the wall clock offset and @K by
 * the address of the tick's hrtimer handler (d_args_tick_handler, read
 * with sc: only probe filters name it, the other texts pass NULL), parsed */
static Expr *expr_of(Program *p, SymCtx *sc, const char *text, const char *base, Loc loc,
		     Error *err)
{
	StrBuf b = {0};
	sb_printf(&b, "{ ");
	for (const char *s = text; *s; s++) {
		if (s[0] == '@' && s[1] == 'T')
			sb_printf(&b, "(%s)", base), s++;
		else if (s[0] == '@' && s[1] == 'W')
			sb_printf(&b, "%llu", (unsigned long long)wall_offset_ns()), s++;
		else if (s[0] == '@' && s[1] == 'K')
			sb_printf(&b, "0x%llx", (unsigned long long)d_args_tick_handler(sc)), s++;
		else
			sb_printf(&b, "%c", *s);
	}
	sb_printf(&b, "; }");
	char *src = arena_strdup(&p->arena, b.s);
	sb_free(&b);
	Lexer lx;
	Probe tmp = {0};
	lexer_init(&lx, src, &p->arena, err);
	if (!parse_d_clause(&lx, p, &tmp, err) || tmp.body.n != 1 || !tmp.body.v[0]->expr)
		return NULL;
	Expr *e = tmp.body.v[0]->expr;
	set_loc(e, loc);
	return e;
}

Expr *d_args_filter(Program *p, SymCtx *sc, const DArgSig *s, Loc loc, Error *err)
{
	return s && s->filter ? expr_of(p, sc, s->filter, "", loc, err) : NULL;
}

/* the interrupted registers' privilege: user mode */
#if defined(__x86_64__)
#define IN_USER "(reg(\"cs\") & 3)"
#elif defined(__aarch64__)
#define IN_USER "((reg(\"pstate\") & 0xf) == 0)"
#else
#define IN_USER "0"
#endif

Expr *d_args_profile(Program *p, const char *name, Loc loc, Error *err)
{
	if (!strcmp(name, "arg0"))
		return expr_of(p, NULL, "(uint64_t)(" IN_USER " ? 0 : reg(\"ip\"))", "", loc, err);
	if (!strcmp(name, "arg1"))
		return expr_of(p, NULL, "(uint64_t)(" IN_USER " ? reg(\"ip\") : 0)", "", loc, err);
	return NULL;
}

static const DArg *arg_of(const DArgSig *s, int n)
{
	return s && n >= 0 && n < 4 && s->args[n].type ? &s->args[n] : NULL;
}

static int nargs(const DArgSig *s)
{
	int n = 0;
	while (arg_of(s, n))
		n++;
	return n;
}

Expr *d_args_index(Program *p, const DArgSig *s, int n, Loc loc, Error *err)
{
	const DArg *a = arg_of(s, n);
	if (!a) {
		error_at(err, loc, "index %d is out of range for %s:::%s args[ ]", n, s->prov, s->name);
		return NULL;
	}
	if (a->xlate) {
		error_at(err, loc, "args[%d] is a %s: use args[%d]->MEMBER", n, a->type, n);
		return NULL;
	}
	return expr_of(p, NULL, a->expr, "", loc, err);
}

static const char *member_text(const XType *t, const char *member)
{
	for (const XMember *m = t->m; m->name; m++)
		if (!strcmp(m->name, member))
			return m->expr;
	return t->base ? member_text(xtype_find(t->base), member) : NULL;
}

/* a member of a translated type given the pointer's sonde text */
static Expr *member_expr(Program *p, const char *type, const char *base, const char *member,
			 Loc loc, Error *err)
{
	const XType *t = xtype_find(type);
	const char *text = t ? member_text(t, member) : NULL;
	if (t && t->base) /* messages name the type D sees */
		type = t->base, t = xtype_find(type);
	if (!text) {
		char sub[80];
		snprintf(sub, sizeof(sub), "%s.", member);
		bool parent = false;
		for (const XMember *m = t ? t->m : NULL; m && m->name; m++)
			parent |= !strncmp(m->name, sub, strlen(sub));
		if (parent)
			error_at(err, loc, "%s is a struct in %s: name one of its members", member, type);
		else
			error_at(err, loc, "translator does not define conversion for member: %s", member);
		return NULL;
	}
	return expr_of(p, NULL, text, base, loc, err);
}

bool d_xlate_builtin_exists(const char *type)
{
	const XType *t = xtype_find(type);
	return t && !t->base; /* a variant (bufinfo_t@done) is not a type D names */
}

Expr *d_xlate_builtin(Program *p, const char *type, const char *in, const char *member, Loc loc,
		      Error *err)
{
	return d_xlate_builtin_exists(type) ? member_expr(p, type, in, member, loc, err) : NULL;
}

Expr *d_args_member(Program *p, const DArgSig *s, int n, const char *member, Loc loc, Error *err)
{
	const DArg *a = arg_of(s, n);
	if (!a || !a->xlate) {
		if (a)
			error_at(err, loc, "args[%d] is a %s, not a pointer to a translated struct", n, a->type);
		else
			error_at(err, loc, "index %d is out of range for %s:::%s args[ ]", n, s->prov, s->name);
		return NULL;
	}
	return member_expr(p, a->xlate, a->expr, member, loc, err);
}

bool d_args_same(const DArgSig *a, const DArgSig *b)
{
	if (a == b)
		return true;
	if (!a || !b || nargs(a) != nargs(b) || (a->filter || b->filter))
		return false;
	for (int i = 0; i < nargs(a); i++)
		if (strcmp(a->args[i].type, b->args[i].type) || strcmp(a->args[i].expr, b->args[i].expr) ||
		    (a->args[i].xlate != b->args[i].xlate &&
		     (!a->args[i].xlate || !b->args[i].xlate || strcmp(a->args[i].xlate, b->args[i].xlate))))
			return false;
	return true;
}

/* --- dtrace -lv -------------------------------------------------------------------- */

enum { INTERNAL, PRIVATE, OBSOLETE, EXTERNAL, UNSTABLE, EVOLVING, STABLE, STANDARD };
enum { UNKNOWN, CPU, PLATFORM, GROUP, ISA, COMMON };

typedef struct Attr {
	int name, data, cls;
} Attr;

/* each provider's attributes (provider, module, function, name, args), as
 * dtrace-utils declares them */
static const struct {
	const char *prov;
	Attr a[5];
} pattrs[] = {
	{"dtrace", {{STABLE, STABLE, COMMON}, {PRIVATE, PRIVATE, UNKNOWN}, {PRIVATE, PRIVATE, UNKNOWN},
		    {STABLE, STABLE, COMMON}, {STABLE, STABLE, COMMON}}},
	{"syscall", {{EVOLVING, EVOLVING, COMMON}, {PRIVATE, PRIVATE, UNKNOWN}, {PRIVATE, PRIVATE, ISA},
		     {EVOLVING, EVOLVING, COMMON}, {PRIVATE, PRIVATE, ISA}}},
	{"profile", {{EVOLVING, EVOLVING, COMMON}, {UNSTABLE, UNSTABLE, UNKNOWN}, {PRIVATE, PRIVATE, UNKNOWN},
		     {EVOLVING, EVOLVING, COMMON}, {EVOLVING, EVOLVING, COMMON}}},
	{"fbt", {{EVOLVING, EVOLVING, COMMON}, {PRIVATE, PRIVATE, ISA}, {PRIVATE, PRIVATE, ISA},
		 {EVOLVING, EVOLVING, COMMON}, {PRIVATE, PRIVATE, ISA}}},
	{"rawtp", {{EVOLVING, EVOLVING, ISA}, {PRIVATE, PRIVATE, UNKNOWN}, {PRIVATE, PRIVATE, UNKNOWN},
		   {PRIVATE, PRIVATE, ISA}, {PRIVATE, PRIVATE, ISA}}},
	/* proc, sched, io; user providers (pid, USDT) */
	{"", {{EVOLVING, EVOLVING, ISA}, {PRIVATE, PRIVATE, UNKNOWN}, {PRIVATE, PRIVATE, UNKNOWN},
	      {EVOLVING, EVOLVING, ISA}, {EVOLVING, EVOLVING, ISA}}},
};

static const char *stability_name(int s)
{
	static const char *const n[] = {"Internal", "Private",	"Obsolete", "External",
					"Unstable", "Evolving", "Stable",   "Standard"};
	return n[s];
}

static const char *class_name(int c)
{
	static const char *const n[] = {"Unknown", "CPU", "Platform", "Group", "ISA", "Common"};
	return n[c];
}

static Attr attr_min(Attr a, Attr b)
{
	return (Attr){a.name < b.name ? a.name : b.name, a.data < b.data ? a.data : b.data,
		      a.cls < b.cls ? a.cls : b.cls};
}

static void print_attr(FILE *out, const char *title, Attr a)
{
	fprintf(out, "\n\t%s\n", title);
	fprintf(out, "\t\tIdentifier Names: %s\n", stability_name(a.name));
	fprintf(out, "\t\tData Semantics:   %s\n", stability_name(a.data));
	fprintf(out, "\t\tDependency Class: %s\n", class_name(a.cls));
}

/* the argument types of probes whose args[] are argN: a syscall's from its
 * tracepoint's format */
static int syscall_arg_types(const DProbeName *n, char types[6][64])
{
	if (strcmp(n->prov, "syscall"))
		return 0;
	char ev[160], err[256];
	snprintf(ev, sizeof(ev), "sys_%s_%s", !strcmp(n->name, "entry") ? "enter" : "exit", n->func);
	TpFormat f;
	if (!tracefs_read_format("syscalls", ev, &f, err, sizeof(err)))
		return 0;
	int k = 0;
	for (int i = 0; i < f.nfields && k < 6; i++) {
		if (!strcmp(f.fields[i].name, "__syscall_nr"))
			continue;
		snprintf(types[k++], 64, "%s", f.fields[i].type);
	}
	tp_format_free(&f);
	return k;
}

/* a raw tracepoint's arguments, 64-bit each as dtrace-utils types them:
 * its BTF prototype's parameters after the context */
static int rawtp_arg_types(SymCtx *sc, const DProbeName *n, char types[6][64])
{
	char tn[160];
	struct btf *b = strcmp(n->prov, "rawtp") ? NULL : btf_kernel(sc);
	snprintf(tn, sizeof(tn), "btf_trace_%s", n->name);
	int id = b ? btf__find_by_name_kind(b, tn, BTF_KIND_TYPEDEF) : -1;
	const struct btf_type *t = id > 0 ? btf__type_by_id(b, btf__resolve_type(b, id)) : NULL;
	t = t && btf_is_ptr(t) ? btf__type_by_id(b, t->type) : NULL;
	int k = t && btf_is_func_proto(t) ? btf_vlen(t) - 1 : 0;
	for (int i = 0; i < k && i < 6; i++)
		snprintf(types[i], 64, "uint64_t");
	return k < 6 ? k : 6;
}

void d_args_print_info(FILE *out, SymCtx *sc, const DProbeName *n)
{
	size_t np = sizeof(pattrs) / sizeof(pattrs[0]), i = 0;
	while (i < np - 1 && strcmp(pattrs[i].prov, n->prov))
		i++;
	const Attr *pa = pattrs[i].a;
	Attr a = pa[0];
	if (*n->mod)
		a = attr_min(a, pa[1]);
	if (*n->func)
		a = attr_min(a, pa[2]);
	if (*n->name)
		a = attr_min(a, pa[3]);
	print_attr(out, "Probe Description Attributes", a);
	print_attr(out, "Argument Attributes", pa[4]);
	fprintf(out, "\n\tArgument Types\n");
	const DArgSig *s = d_args_of(n->prov, n->name, NULL);
	char types[6][64];
	int k = s ? nargs(s) : !strcmp(n->prov, "rawtp") ? rawtp_arg_types(sc, n, types)
						: syscall_arg_types(n, types);
	for (int j = 0; j < k; j++)
		fprintf(out, "\t\targs[%d]: %s\n", j, s ? s->args[j].type : types[j]);
	if (!k)
		fprintf(out, "\t\tNone\n");
	fprintf(out, "\n");
}
