/* The programs on the task events: sched_process_fork and _exit,
 * signal_deliver, signal_generate, and --event tracepoints. */
#include "bpfgen.h"
#include "decode.h"

/* the traced-process filter; leaves pid_tgid at S_PIDTGID */
static void pid_filter(Gen *g, int out)
{
	emit_call(g, BPF_FUNC_get_current_pid_tgid);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, S_PIDTGID));
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_0, S_KEY));
	tg_lookup(g, TM_PIDS, S_KEY, out);
}

/* sched_process_fork: the child of a traced process is traced (-f) */
void gen_fork(Gen *g)
{
	int out = label_new(g);
	emit(g, I_MOV64_REG(R_CTX, BPF_REG_1));
	pid_filter(g, out);
	emit(g, I_LDX(BPF_W, BPF_REG_1, R_CTX, 20)); /* child_pid */
	emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_1, S_IDX));
	emit(g, I_ST(BPF_W, BPF_REG_10, S_NR, 1));
	ld_map(g, BPF_REG_1, TM_PIDS);
	emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_10));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_2, S_IDX));
	emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_10));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, S_NR));
	emit(g, I_MOV64_IMM(BPF_REG_4, BPF_ANY));
	emit_call(g, BPF_FUNC_map_update_elem);
	tg_scratch(g, out);
	hdr_common(g, REC_FORK);
	emit(g, I_LDX(BPF_W, BPF_REG_1, R_CTX, 20));
	emit(g, I_STX(BPF_W, R_SCR, BPF_REG_1, H_AUX));
	emit_call(g, BPF_FUNC_ktime_get_ns);
	emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_0, H_TS));
	tg_output(g, -1, TRACE_HDR_SIZE);
	finish_exit(g, out);
}

/* a record of type for a traced process begins in the scratch (else out) */
static void task_record(Gen *g, int type, int out)
{
	emit(g, I_MOV64_REG(R_CTX, BPF_REG_1));
	pid_filter(g, out);
	tg_scratch(g, out);
	hdr_common(g, type);
}

/* sched_process_exec: the marker that a traced process runs its new image
 * (the printer shows nothing of the command sonde started before its
 * execve, also when -e leaves execve out) */
void gen_exec(Gen *g)
{
	int out = label_new(g);
	task_record(g, REC_EXEC, out);
	emit_call(g, BPF_FUNC_ktime_get_ns);
	emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_0, H_TS));
	tg_output(g, -1, TRACE_HDR_SIZE);
	finish_exit(g, out);
}

/* r0 = the entry slot of the task whose tid is the u32 at stack slot
 * tid_off, if the slot is that task's; else goto miss */
static void slot_of_tid(Gen *g, int tid_off, int miss)
{
	emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_10, tid_off));
	emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_1, START_SLOTS - 1));
	emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_1, S_IDX));
	tg_lookup(g, TM_START, S_IDX, miss);
	emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_0, 0));
	emit(g, I_LDX(BPF_W, BPF_REG_2, BPF_REG_10, tid_off));
	emit_jmp_reg(g, BPF_JNE, BPF_REG_1, BPF_REG_2, miss);
}

/* sched_process_exit of a whole process: its exit code, from task_struct */
void gen_proc_exit(Gen *g, int exit_code_off)
{
	int out = label_new(g);
	emit(g, I_MOV64_REG(R_CTX, BPF_REG_1));
	pid_filter(g, out);
	/* the thread's slot stops marking it traced (its tid may be reused) */
	int kept = label_new(g);
	slot_of_tid(g, S_PIDTGID, kept);
	emit(g, I_ST(BPF_W, BPF_REG_0, 0, 0));
	label_place(g, kept);
	/* -f puts every child task in the pid set under its own id, threads
	 * too: each leaves it when it exits (the process's id at the end) */
	emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_10, S_PIDTGID));
	emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_1, S_IDX));
	ld_map(g, BPF_REG_1, TM_PIDS);
	emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_10));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_2, S_IDX));
	emit_call(g, BPF_FUNC_map_delete_elem);
	tg_scratch(g, out);
	hdr_common(g, REC_PROC_EXIT);
	emit(g, I_ST(BPF_DW, R_SCR, H_RET, 0));
	if (exit_code_off >= 0) {
		emit_call(g, BPF_FUNC_get_current_task);
		emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_0));
		emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, exit_code_off));
		emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
		emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, H_RET));
		emit(g, I_MOV64_IMM(BPF_REG_2, 4));
		emit_call(g, BPF_FUNC_probe_read_kernel);
		emit(g, I_ST(BPF_W, R_SCR, H_AUX, 1)); /* code known */
	}
	emit_call(g, BPF_FUNC_ktime_get_ns);
	emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_0, H_TS));
	/* nr 0: the process is gone (group_dead); 1: one of its threads */
	int thread = label_new(g), sent = label_new(g);
	emit(g, I_ST(BPF_H, R_SCR, H_NR, 0));
	emit(g, I_LDX(BPF_B, BPF_REG_1, R_CTX, 32)); /* group_dead */
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, thread);
	tg_output(g, -1, TRACE_HDR_SIZE);
	ld_map(g, BPF_REG_1, TM_PIDS);
	emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_10));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_2, S_KEY));
	emit_call(g, BPF_FUNC_map_delete_elem);
	emit_goto(g, sent);
	label_place(g, thread);
	emit(g, I_ST(BPF_H, R_SCR, H_NR, 1));
	tg_output(g, -1, TRACE_HDR_SIZE);
	label_place(g, sent);
	finish_exit(g, out);
}

/* a struct kernel_siginfo at r3 (kernel) into the record after the header:
 * len and cap[0] = SIGINFO_LEN, aux = si_code; left empty if unreadable */
static void read_siginfo(Gen *g)
{
	int none = label_new(g);
	emit_jmp_imm(g, BPF_JLT, BPF_REG_3, 4096, none); /* SEND_SIG_NOINFO, _PRIV */
	emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, TRACE_HDR_SIZE));
	emit(g, I_MOV64_IMM(BPF_REG_2, SIGINFO_LEN));
	emit_call(g, BPF_FUNC_probe_read_kernel);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, none);
	emit(g, I_ST(BPF_W, R_SCR, H_LEN, SIGINFO_LEN));
	emit(g, I_ST(BPF_H, R_SCR, H_CAP, SIGINFO_LEN));
	emit(g, I_LDX(BPF_W, BPF_REG_1, R_SCR, TRACE_HDR_SIZE + 8));
	emit(g, I_STX(BPF_W, R_SCR, BPF_REG_1, H_AUX));
	label_place(g, none);
	emit_call(g, BPF_FUNC_ktime_get_ns);
	emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_0, H_TS));
	tg_output(g, -1, TRACE_HDR_SIZE + SIGINFO_LEN);
}

/* raw tracepoint signal_deliver(sig, struct kernel_siginfo *, ka): a signal
 * the current thread takes (handler or default action) */
void gen_signal(Gen *g)
{
	int out = label_new(g);
	task_record(g, REC_SIGNAL, out);
	emit(g, I_ST(BPF_H, R_SCR, H_NR, SIG_DELIVERED));
	emit(g, I_LDX(BPF_W, BPF_REG_1, R_CTX, 0));
	emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_1, H_RET));
	emit(g, I_LDX(BPF_DW, BPF_REG_3, R_CTX, 8));
	read_siginfo(g);
	finish_exit(g, out);
}

/* entry_few: whether the target of a signal is inside a call, without
 * entry marks: the sender itself is when its registers are a syscall's
 * (ax still -ENOSYS, orig_ax a call number); another task is when it
 * sleeps (a blocking call).  S_NR = target pid; goes to in_call or idle. */
static void target_in_call(Gen *g, int state_off, int in_call, int idle)
{
	int other = label_new(g);
	emit_call(g, BPF_FUNC_get_current_pid_tgid);
	emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_0, 32));
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_10, S_NR));
	emit_jmp_reg(g, BPF_JNE, BPF_REG_0, BPF_REG_1, other);
	current_regs(g);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, 80)); /* ax */
	emit_jmp_imm(g, BPF_JNE, BPF_REG_1, -38, idle);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, REGS_ORIG_AX));
	emit_jmp_imm(g, BPF_JGT, BPF_REG_1, SYSCALL_MAX - 1, idle);
	emit_goto(g, in_call);
	label_place(g, other);
	if (state_off < 0) {
		emit_goto(g, idle);
		return;
	}
	emit(g, I_ST(BPF_W, BPF_REG_10, S_TMP, 0));
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_10));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, S_TMP));
	emit(g, I_MOV64_IMM(BPF_REG_2, 4));
	emit(g, I_LDX(BPF_DW, BPF_REG_3, R_CTX, 16));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, state_off));
	emit_call(g, BPF_FUNC_probe_read_kernel);
	emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_10, S_TMP));
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0 /* TASK_RUNNING */, idle);
	emit_goto(g, in_call);
}

/* raw tracepoint signal_generate(sig, info, task, group, result): a signal
 * sent to a traced process that the kernel drops at once because it is
 * ignored (SIGCHLD by default) never reaches signal_deliver; strace sees it
 * (ptrace keeps it), so it is sent from here, for the target task. */
void gen_siggen(Gen *g, const TraceBpf *b, const TaskOffsets *t)
{
	int pid_off = t->pid, tgid_off = t->tgid;
	int out = label_new(g), idle = label_new(g);
	emit(g, I_MOV64_REG(R_CTX, BPF_REG_1));
	emit(g, I_LDX(BPF_DW, BPF_REG_1, R_CTX, 32));
	emit_jmp_imm(g, BPF_JNE, BPF_REG_1, 1 /* TRACE_SIGNAL_IGNORED */, out);
	for (int k = 0; k < 2; k++) {
		emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_10));
		emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, k ? S_NR : S_KEY));
		emit(g, I_MOV64_IMM(BPF_REG_2, 4));
		emit(g, I_LDX(BPF_DW, BPF_REG_3, R_CTX, 16));
		emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, k ? pid_off : tgid_off));
		emit_call(g, BPF_FUNC_probe_read_kernel);
		emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, out);
	}
	tg_lookup(g, TM_PIDS, S_KEY, out);
	/* S_PIDTGID = tgid << 32 | pid of the target */
	emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_10, S_KEY));
	emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_1, 32));
	emit(g, I_LDX(BPF_W, BPF_REG_2, BPF_REG_10, S_NR));
	emit(g, I_ALU64_REG(BPF_OR, BPF_REG_1, BPF_REG_2));
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_1, S_PIDTGID));
	/* is the target inside a traced call?  then it sees the signal when
	 * that call returns: the reader prints it after the call's line */
	emit(g, I_ST(BPF_DW, BPF_REG_10, S_DUR, SIG_IGNORED));
	int in_call = label_new(g);
	if (b->entry_few) {
		target_in_call(g, t->state, in_call, idle);
	} else {
		/* its slot holds a pending call */
		slot_of_tid(g, S_NR, idle);
		emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_0, 4));
		emit_jmp_imm(g, BPF_JGT, BPF_REG_1, SYSCALL_MAX - 1, idle);
	}
	label_place(g, in_call);
	emit(g, I_ST(BPF_DW, BPF_REG_10, S_DUR, SIG_IGNORED_IN_CALL));
	label_place(g, idle);
	tg_scratch(g, out);
	hdr_common(g, REC_SIGNAL);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, S_DUR));
	emit(g, I_STX(BPF_H, R_SCR, BPF_REG_1, H_NR));
	emit(g, I_LDX(BPF_W, BPF_REG_1, R_CTX, 0));
	emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_1, H_RET));
	/* the sender, for a signal sent without siginfo (SEND_SIG_NOINFO) */
	emit_call(g, BPF_FUNC_get_current_pid_tgid);
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_0, H_ARGS + 8));
	emit_call(g, BPF_FUNC_get_current_uid_gid);
	emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_0, 32));
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_0, H_ARGS + 24));
	emit(g, I_LDX(BPF_DW, BPF_REG_3, R_CTX, 8));
	emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_3, H_ARGS + 16));
	read_siginfo(g);
	finish_exit(g, out);
}

/* --event: the raw tracepoint record after the header */
void gen_event(Gen *g, int idx, int size)
{
	int out = label_new(g);
	emit(g, I_MOV64_REG(R_CTX, BPF_REG_1));
	pid_filter(g, out);
	tg_scratch(g, out);
	hdr_common(g, REC_EVENT);
	emit(g, I_ST(BPF_H, R_SCR, H_NR, idx));
	emit(g, I_ST(BPF_W, R_SCR, H_LEN, size));
	emit_call(g, BPF_FUNC_ktime_get_ns);
	emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_0, H_TS));
	emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, TRACE_HDR_SIZE));
	emit(g, I_MOV64_IMM(BPF_REG_2, size));
	emit(g, I_MOV64_REG(BPF_REG_3, R_CTX));
	emit_call(g, BPF_FUNC_probe_read_kernel);
	tg_output(g, -1, TRACE_HDR_SIZE + size);
	finish_exit(g, out);
}
