/* sonde_pybase: where each process has its CPython interpreter, when the
 * run's interpreter files are at other addresses in each process (a
 * libpython3.11.so, a position-independent python: PyLayout.files), so
 * that one walk serves every process.  An entry is made by a uprobe on the
 * file's Py_InitializeFromConfig (every way of starting CPython runs it
 * once, before any Python code), copied to a forked child, deleted when
 * the process execs or exits, and made from /proc/PID/maps for the
 * processes already running when sonde starts.  A process with no entry
 * gets the fixed interpreter's addresses (or no walk), and every frame a
 * walk reads is still checked against the process's PyCode_Type: an entry
 * that went stale cannot make a wrong frame pass. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <linux/perf_event.h>

#include "../bpf/attach.h"
#include "../compile/sema.h"
#include "../probes/provider.h"
#include "../sym/tracefs.h"
#include "runtime.h"

#define CLONE_THREAD_FLAG 0x00010000

/* *(u32 *)(fp - 4) = the current process's tgid */
static void key_tgid(BpfCode *c)
{
	bpf_emit_call(c, BPF_FUNC_get_current_pid_tgid);
	bpf_emit(c, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	bpf_emit_stx(c, BPF_W, BPF_REG_10, BPF_REG_0, -4);
}

/* map_update(sonde_pybase, fp - 4, fp - 24) */
static void update_entry(BpfCode *c)
{
	bpf_emit_ld_map(c, BPF_REG_1, R_PYBASE, 0);
	bpf_emit(c, I_MOV64_REG(BPF_REG_2, BPF_REG_10));
	bpf_emit(c, I_ALU64_IMM(BPF_ADD, BPF_REG_2, -4));
	bpf_emit(c, I_MOV64_REG(BPF_REG_3, BPF_REG_10));
	bpf_emit(c, I_ALU64_IMM(BPF_ADD, BPF_REG_3, -24));
	bpf_emit(c, I_MOV64_IMM(BPF_REG_4, BPF_ANY));
	bpf_emit_call(c, BPF_FUNC_map_update_elem);
}

/* One program serves every file's Py_InitializeFromConfig: its uprobe's
 * BPF cookie says where the file's _PyRuntime (high 32 bits) and
 * PyCode_Type (low 32 bits) are from the function, as signed distances,
 * so a file's count costs a link, not a program. */
static bool init_cookie(const PyFile *f, uint64_t *cookie)
{
	int64_t rt = (int64_t)(f->runtime - f->init_vaddr), ct = (int64_t)(f->code_type - f->init_vaddr);
	if (rt != (int32_t)rt || ct != (int32_t)ct)
		return false;
	*cookie = (uint64_t)(uint32_t)rt << 32 | (uint32_t)ct;
	return true;
}

/* At a file's Py_InitializeFromConfig: the process's entry, the probed
 * address plus the cookie's distances */
static bool init_code(BpfCode *c)
{
	bpf_emit(c, I_MOV64_REG(BPF_REG_6, BPF_REG_1));
	key_tgid(c);
	bpf_emit(c, I_MOV64_REG(BPF_REG_1, BPF_REG_6));
	bpf_emit_call(c, BPF_FUNC_get_attach_cookie);
	bpf_emit_ldx(c, BPF_DW, BPF_REG_7, BPF_REG_6, pt_regs_offset("ip"));
	bpf_emit(c, I_MOV64_REG(BPF_REG_1, BPF_REG_0));
	bpf_emit(c, I_ALU64_IMM(BPF_ARSH, BPF_REG_1, 32));
	bpf_emit(c, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_7));
	bpf_emit_stx(c, BPF_DW, BPF_REG_10, BPF_REG_1, -24);
	bpf_emit(c, I_ALU64_IMM(BPF_LSH, BPF_REG_0, 32));
	bpf_emit(c, I_ALU64_IMM(BPF_ARSH, BPF_REG_0, 32));
	bpf_emit(c, I_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_7));
	bpf_emit_stx(c, BPF_DW, BPF_REG_10, BPF_REG_0, -16);
	update_entry(c);
	bpf_emit(c, I_MOV64_IMM(BPF_REG_0, 0));
	bpf_emit(c, I_EXIT());
	return bpf_emit_finish(c);
}

/* task:task_newtask of a process (not a thread): the parent's entry is
 * the child's (same mappings) */
static bool fork_code(BpfCode *c, int pid_off, int flags_off)
{
	int out = bpf_label_new(c);
	bpf_emit(c, I_MOV64_REG(BPF_REG_6, BPF_REG_1));
	bpf_emit_ldx(c, BPF_DW, BPF_REG_1, BPF_REG_6, flags_off);
	bpf_emit(c, I_ALU64_IMM(BPF_AND, BPF_REG_1, CLONE_THREAD_FLAG));
	bpf_emit_jmp_imm(c, BPF_JNE, BPF_REG_1, 0, out);
	key_tgid(c);
	bpf_emit_ld_map(c, BPF_REG_1, R_PYBASE, 0);
	bpf_emit(c, I_MOV64_REG(BPF_REG_2, BPF_REG_10));
	bpf_emit(c, I_ALU64_IMM(BPF_ADD, BPF_REG_2, -4));
	bpf_emit_call(c, BPF_FUNC_map_lookup_elem);
	bpf_emit_jmp_imm(c, BPF_JEQ, BPF_REG_0, 0, out);
	bpf_emit_ldx(c, BPF_DW, BPF_REG_1, BPF_REG_0, 0);
	bpf_emit_stx(c, BPF_DW, BPF_REG_10, BPF_REG_1, -24);
	bpf_emit_ldx(c, BPF_DW, BPF_REG_1, BPF_REG_0, 8);
	bpf_emit_stx(c, BPF_DW, BPF_REG_10, BPF_REG_1, -16);
	bpf_emit_ldx(c, BPF_W, BPF_REG_1, BPF_REG_6, pid_off);
	bpf_emit_stx(c, BPF_W, BPF_REG_10, BPF_REG_1, -4);
	update_entry(c);
	bpf_label_place(c, out);
	bpf_emit(c, I_MOV64_IMM(BPF_REG_0, 0));
	bpf_emit(c, I_EXIT());
	return bpf_emit_finish(c);
}

/* sched:sched_process_exec, or sched_process_exit of the group's leader
 * (leader_only): the process's entry goes */
static bool forget_code(BpfCode *c, bool leader_only)
{
	int out = bpf_label_new(c);
	if (leader_only) {
		bpf_emit_call(c, BPF_FUNC_get_current_pid_tgid);
		bpf_emit(c, I_MOV64_REG(BPF_REG_1, BPF_REG_0));
		bpf_emit(c, I_ALU64_IMM(BPF_LSH, BPF_REG_1, 32));
		bpf_emit(c, I_ALU64_IMM(BPF_RSH, BPF_REG_1, 32));
		bpf_emit(c, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
		bpf_emit_jmp_reg(c, BPF_JNE, BPF_REG_0, BPF_REG_1, out);
	}
	key_tgid(c);
	bpf_emit_ld_map(c, BPF_REG_1, R_PYBASE, 0);
	bpf_emit(c, I_MOV64_REG(BPF_REG_2, BPF_REG_10));
	bpf_emit(c, I_ALU64_IMM(BPF_ADD, BPF_REG_2, -4));
	bpf_emit_call(c, BPF_FUNC_map_delete_elem);
	bpf_label_place(c, out);
	bpf_emit(c, I_MOV64_IMM(BPF_REG_0, 0));
	bpf_emit(c, I_EXIT());
	return bpf_emit_finish(c);
}

static bool pybase_load_prog(Runtime *rt, int slot, BpfCode *c, bool ok, int type, const char *what, char *err,
		     size_t errlen)
{
	rt->pyprog_fds[slot] = pycode_load_prog(rt, c, ok, type, what, err, errlen);
	return rt->pyprog_fds[slot] >= 0;
}

/* task_newtask's pid and clone_flags offsets, from its format */
static bool newtask_offsets(int *pid_off, int *flags_off, char *err, size_t errlen)
{
	TpFormat f = {0};
	bool ok = tracefs_read_format("task", "task_newtask", &f, err, errlen);
	const TpField *pid = ok ? tp_format_field(&f, "pid") : NULL;
	const TpField *flags = ok ? tp_format_field(&f, "clone_flags") : NULL;
	if (pid && flags) {
		*pid_off = pid->offset;
		*flags_off = flags->offset;
	} else if (ok)
		snprintf(err, errlen, "task:task_newtask has no pid and clone_flags");
	tp_format_free(&f);
	return pid && flags;
}

bool pybase_load(Runtime *rt, char *err, size_t errlen)
{
	const PyLayout *l = rt->sc->py;
	int pid_off, flags_off;
	if (!l->nfiles)
		return true;
	if (!newtask_offsets(&pid_off, &flags_off, err, errlen))
		return false;
	BpfCode c[4] = {0};
	if (!pybase_load_prog(rt, PYPROG_FORK, &c[0], fork_code(&c[0], pid_off, flags_off),
		      BPF_PROG_TYPE_TRACEPOINT, "forks", err, errlen) ||
	    !pybase_load_prog(rt, PYPROG_EXEC, &c[1], forget_code(&c[1], false), BPF_PROG_TYPE_TRACEPOINT,
		      "execs", err, errlen) ||
	    !pybase_load_prog(rt, PYPROG_EXIT, &c[2], forget_code(&c[2], true), BPF_PROG_TYPE_TRACEPOINT,
		      "exits", err, errlen))
		return false;
	return pybase_load_prog(rt, PYPROG_INIT, &c[3], init_code(&c[3]), BPF_PROG_TYPE_KPROBE,
				"Py_InitializeFromConfig", err, errlen);
}

static bool pybase_attach_tp(Runtime *rt, const char *cat, const char *name, int prog, char *err, size_t errlen)
{
	TpFormat f = {0};
	char why[256];
	bool ok = tracefs_read_format(cat, name, &f, why, sizeof(why));
	int pfd = ok ? open_perf_event(PERF_TYPE_TRACEPOINT, (uint64_t)f.id, 1, false, -1, 0, why,
				       sizeof(why)) : -1;
	ok = pfd >= 0 && attach_perf_event(pfd, rt->pyprog_fds[prog], &rt->attached, why, sizeof(why));
	tp_format_free(&f);
	if (!ok)
		snprintf(err, errlen, "cannot attach the probe on %s:%s (where sonde follows which "
			 "processes run CPython): %s", cat, name, why);
	return ok;
}

static bool attach_init(Runtime *rt, const PyFile *f, char *err, size_t errlen)
{
	char name[] = "uprobe:Py_InitializeFromConfig", why[384] = "no uprobe provider";
	const Provider *up = provider_find("uprobe");
	ProbeSpec s = {.prov = up, .name = name, .target = (char *)f->path, .offset = f->init_off,
		       .pid = -1};
	if (!init_cookie(f, &s.cookie))
		snprintf(why, sizeof(why), "its _PyRuntime or PyCode_Type is more than 2 GiB away");
	else if (up && up->attach(&s, rt->pyprog_fds[PYPROG_INIT], &rt->attached, why, sizeof(why)))
		return true;
	snprintf(err, errlen, "cannot attach the probe on %s's Py_InitializeFromConfig (where sonde "
		 "learns where a process has its interpreter): %s", f->path, why);
	return false;
}

/* the processes running before the probes were attached: from their maps
 * (one that exited meanwhile is not left behind) */
static void scan_processes(Runtime *rt, const PyLayout *l)
{
	PyProcBase *v;
	int n = py_proc_bases(rt->sc->opt.sym, l, &v);
	for (int i = 0; i < n; i++) {
		uint32_t pid = (uint32_t)v[i].pid;
		bpf_map_update_elem(rt->pybase_fd, &pid, &v[i].base, BPF_NOEXIST);
		if (kill((int)pid, 0) < 0 && errno == ESRCH)
			bpf_map_delete_elem(rt->pybase_fd, &pid);
	}
	free(v);
}

bool pybase_attach(Runtime *rt, char *err, size_t errlen)
{
	const PyLayout *l = rt->sc->py;
	if (!l->nfiles)
		return true;
	if (!pybase_attach_tp(rt, "sched", "sched_process_exit", PYPROG_EXIT, err, errlen) ||
	    !pybase_attach_tp(rt, "sched", "sched_process_exec", PYPROG_EXEC, err, errlen) ||
	    !pybase_attach_tp(rt, "task", "task_newtask", PYPROG_FORK, err, errlen))
		return false;
	for (int i = 0; i < l->nfiles; i++)
		if (!attach_init(rt, &l->files[i], err, errlen))
			return false;
	scan_processes(rt, l);
	return true;
}
