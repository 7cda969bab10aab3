/* The programs on the task events: sched_process_fork and _exit,
 * signal_deliver, signal_generate, and --event tracepoints. */
#include "bpfgen.h"
#include "decode.h"

/* the traced-process filter; leaves pid_tgid at S_PIDTGID */
static void pid_filter(BpfCode *g, bool all, int out)
{
	bpf_emit_call(g, BPF_FUNC_get_current_pid_tgid);
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, S_PIDTGID));
	bpf_emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	bpf_emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_0, S_KEY));
	tg_traced(g, all, S_KEY, out);
}

/* sched_process_fork: the child of a traced process is traced (-f) */
void gen_fork(BpfCode *g, bool all)
{
	int out = bpf_label_new(g);
	bpf_emit(g, I_MOV64_REG(R_CTX, BPF_REG_1));
	pid_filter(g, all, out);
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_1, R_CTX, 20)); /* child_pid */
	bpf_emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_1, S_IDX));
	bpf_emit(g, I_ST(BPF_W, BPF_REG_10, S_NR, 1));
	ld_map(g, BPF_REG_1, TM_PIDS);
	bpf_emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_10));
	bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_2, S_IDX));
	bpf_emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_10));
	bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, S_NR));
	bpf_emit(g, I_MOV64_IMM(BPF_REG_4, BPF_ANY));
	bpf_emit_call(g, BPF_FUNC_map_update_elem);
	tg_scratch(g, out);
	hdr_common(g, REC_FORK);
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_1, R_CTX, 20));
	bpf_emit(g, I_STX(BPF_W, R_SCR, BPF_REG_1, H_AUX));
	bpf_emit_call(g, BPF_FUNC_ktime_get_ns);
	bpf_emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_0, H_TS));
	tg_output(g, -1, TRACE_HDR_SIZE);
	finish_exit(g, out);
}

/* a record of type for a traced process begins in the scratch (else out) */
static void task_record(BpfCode *g, bool all, int type, int out)
{
	bpf_emit(g, I_MOV64_REG(R_CTX, BPF_REG_1));
	pid_filter(g, all, out);
	tg_scratch(g, out);
	hdr_common(g, type);
}

/* sched_process_exec: the marker that a traced process runs its new image
 * (the printer shows nothing of the command sonde started before its
 * execve, also when -e leaves execve out) */
void gen_exec(BpfCode *g, bool all)
{
	int out = bpf_label_new(g);
	task_record(g, all, REC_EXEC, out);
	bpf_emit_call(g, BPF_FUNC_ktime_get_ns);
	bpf_emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_0, H_TS));
	tg_output(g, -1, TRACE_HDR_SIZE);
	finish_exit(g, out);
}

/* r0 = the entry slot of the task whose tid is the u32 at stack slot
 * tid_off, if the slot is that task's; else goto miss */
static void slot_of_tid(BpfCode *g, int tid_off, int miss)
{
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_10, tid_off));
	bpf_emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_1, START_SLOTS - 1));
	bpf_emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_1, S_IDX));
	tg_lookup(g, TM_START, S_IDX, miss);
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_0, 0));
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_2, BPF_REG_10, tid_off));
	bpf_emit_jmp_reg(g, BPF_JNE, BPF_REG_1, BPF_REG_2, miss);
}

/* sched_process_exit of a whole process: its exit code, from task_struct */
void gen_proc_exit(BpfCode *g, bool all, int exit_code_off)
{
	int out = bpf_label_new(g);
	bpf_emit(g, I_MOV64_REG(R_CTX, BPF_REG_1));
	pid_filter(g, all, out);
	/* the thread's slot stops marking it traced (its tid may be reused) */
	int kept = bpf_label_new(g);
	slot_of_tid(g, S_PIDTGID, kept);
	bpf_emit(g, I_ST(BPF_W, BPF_REG_0, 0, 0));
	bpf_label_place(g, kept);
	/* -f puts every child task in the pid set under its own id, threads
	 * too: each leaves it when it exits (the process's id at the end) */
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_10, S_PIDTGID));
	bpf_emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_1, S_IDX));
	ld_map(g, BPF_REG_1, TM_PIDS);
	bpf_emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_10));
	bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_2, S_IDX));
	bpf_emit_call(g, BPF_FUNC_map_delete_elem);
	tg_scratch(g, out);
	hdr_common(g, REC_PROC_EXIT);
	bpf_emit(g, I_ST(BPF_DW, R_SCR, H_RET, 0));
	if (exit_code_off >= 0) {
		bpf_emit_call(g, BPF_FUNC_get_current_task);
		bpf_emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_0));
		bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, exit_code_off));
		bpf_emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
		bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, H_RET));
		bpf_emit(g, I_MOV64_IMM(BPF_REG_2, 4));
		bpf_emit_call(g, BPF_FUNC_probe_read_kernel);
		bpf_emit(g, I_ST(BPF_W, R_SCR, H_AUX, 1)); /* code known */
	}
	bpf_emit_call(g, BPF_FUNC_ktime_get_ns);
	bpf_emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_0, H_TS));
	/* nr 0: the process is gone (group_dead); 1: one of its threads */
	int thread = bpf_label_new(g), sent = bpf_label_new(g);
	bpf_emit(g, I_ST(BPF_H, R_SCR, H_NR, 0));
	bpf_emit(g, I_LDX(BPF_B, BPF_REG_1, R_CTX, 32)); /* group_dead */
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, thread);
	tg_output(g, -1, TRACE_HDR_SIZE);
	ld_map(g, BPF_REG_1, TM_PIDS);
	bpf_emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_10));
	bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_2, S_KEY));
	bpf_emit_call(g, BPF_FUNC_map_delete_elem);
	bpf_emit_goto(g, sent);
	bpf_label_place(g, thread);
	bpf_emit(g, I_ST(BPF_H, R_SCR, H_NR, 1));
	tg_output(g, -1, TRACE_HDR_SIZE);
	bpf_label_place(g, sent);
	finish_exit(g, out);
}

/* a struct kernel_siginfo at r3 (kernel) into the record after the header:
 * len and cap[0] = SIGINFO_LEN, aux = si_code; left empty if unreadable */
static void read_siginfo(BpfCode *g)
{
	int none = bpf_label_new(g);
	bpf_emit_jmp_imm(g, BPF_JLT, BPF_REG_3, 4096, none); /* SEND_SIG_NOINFO, _PRIV */
	bpf_emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, TRACE_HDR_SIZE));
	bpf_emit(g, I_MOV64_IMM(BPF_REG_2, SIGINFO_LEN));
	bpf_emit_call(g, BPF_FUNC_probe_read_kernel);
	bpf_emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, none);
	bpf_emit(g, I_ST(BPF_W, R_SCR, H_LEN, SIGINFO_LEN));
	bpf_emit(g, I_ST(BPF_H, R_SCR, H_CAP, SIGINFO_LEN));
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_1, R_SCR, TRACE_HDR_SIZE + 8));
	bpf_emit(g, I_STX(BPF_W, R_SCR, BPF_REG_1, H_AUX));
	bpf_label_place(g, none);
	bpf_emit_call(g, BPF_FUNC_ktime_get_ns);
	bpf_emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_0, H_TS));
	tg_output(g, -1, TRACE_HDR_SIZE + SIGINFO_LEN);
}

/* raw tracepoint signal_deliver(sig, struct kernel_siginfo *, ka): a signal
 * the current thread takes (handler or default action) */
void gen_signal_delivery(BpfCode *g, bool all)
{
	int out = bpf_label_new(g);
	task_record(g, all, REC_SIGNAL, out);
	bpf_emit(g, I_ST(BPF_H, R_SCR, H_NR, SIG_DELIVERED));
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_1, R_CTX, 0));
	bpf_emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_1, H_RET));
	/* args[0]: the action's handler (ka->sa.sa_handler; zeroed if the
	 * read fails): a stop signal's default action stops the thread */
	bpf_emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, H_ARGS));
	bpf_emit(g, I_MOV64_IMM(BPF_REG_2, 8));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, R_CTX, 16));
	bpf_emit_call(g, BPF_FUNC_probe_read_kernel);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, R_CTX, 8));
	read_siginfo(g);
	finish_exit(g, out);
}

/* entry_few: whether the target of a signal is inside a call, without
 * entry marks: the sender itself is when its registers are a syscall's
 * (ax still -ENOSYS, orig_ax a call number); another task is when it
 * sleeps (a blocking call).  S_NR = target pid; goes to in_call or idle. */
static void target_in_call(BpfCode *g, int state_off, int in_call, int idle)
{
	int other = bpf_label_new(g);
	bpf_emit_call(g, BPF_FUNC_get_current_pid_tgid);
	bpf_emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_0, 32));
	bpf_emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_10, S_NR));
	bpf_emit_jmp_reg(g, BPF_JNE, BPF_REG_0, BPF_REG_1, other);
	current_regs(g);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, 80)); /* ax */
	bpf_emit_jmp_imm(g, BPF_JNE, BPF_REG_1, -38, idle);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, REGS_ORIG_AX));
	bpf_emit_jmp_imm(g, BPF_JGT, BPF_REG_1, SYSCALL_MAX - 1, idle);
	bpf_emit_goto(g, in_call);
	bpf_label_place(g, other);
	if (state_off < 0) {
		bpf_emit_goto(g, idle);
		return;
	}
	bpf_emit(g, I_ST(BPF_W, BPF_REG_10, S_TMP, 0));
	bpf_emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_10));
	bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, S_TMP));
	bpf_emit(g, I_MOV64_IMM(BPF_REG_2, 4));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, R_CTX, 16));
	bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, state_off));
	bpf_emit_call(g, BPF_FUNC_probe_read_kernel);
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_10, S_TMP));
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0 /* TASK_RUNNING */, idle);
	bpf_emit_goto(g, in_call);
}

/* raw tracepoint signal_generate(sig, info, task, group, result): a signal
 * sent to a traced process that the kernel drops at once because it is
 * ignored (SIGCHLD by default) never reaches signal_deliver; strace sees it
 * (ptrace keeps it), so it is sent from here, for the target task. */
void gen_siggen(BpfCode *g, const TraceBpf *b, const TaskOffsets *t)
{
	int pid_off = t->pid, tgid_off = t->tgid;
	int out = bpf_label_new(g), idle = bpf_label_new(g);
	bpf_emit(g, I_MOV64_REG(R_CTX, BPF_REG_1));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, R_CTX, 32));
	bpf_emit_jmp_imm(g, BPF_JNE, BPF_REG_1, 1 /* TRACE_SIGNAL_IGNORED */, out);
	for (int k = 0; k < 2; k++) {
		bpf_emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_10));
		bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, k ? S_NR : S_KEY));
		bpf_emit(g, I_MOV64_IMM(BPF_REG_2, 4));
		bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, R_CTX, 16));
		bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, k ? pid_off : tgid_off));
		bpf_emit_call(g, BPF_FUNC_probe_read_kernel);
		bpf_emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, out);
	}
	tg_traced(g, b->all, S_KEY, out);
	/* S_PIDTGID = tgid << 32 | pid of the target */
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_10, S_KEY));
	bpf_emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_1, 32));
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_2, BPF_REG_10, S_NR));
	bpf_emit(g, I_ALU64_REG(BPF_OR, BPF_REG_1, BPF_REG_2));
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_1, S_PIDTGID));
	/* is the target inside a traced call?  then it sees the signal when
	 * that call returns: the reader prints it after the call's line */
	bpf_emit(g, I_ST(BPF_DW, BPF_REG_10, S_DUR, SIG_IGNORED));
	int in_call = bpf_label_new(g);
	if (b->entry_few) {
		target_in_call(g, t->state, in_call, idle);
	} else {
		/* its slot holds a pending call */
		slot_of_tid(g, S_NR, idle);
		bpf_emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_0, 4));
		bpf_emit_jmp_imm(g, BPF_JGT, BPF_REG_1, SYSCALL_MAX - 1, idle);
	}
	bpf_label_place(g, in_call);
	bpf_emit(g, I_ST(BPF_DW, BPF_REG_10, S_DUR, SIG_IGNORED_IN_CALL));
	bpf_label_place(g, idle);
	tg_scratch(g, out);
	hdr_common(g, REC_SIGNAL);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, S_DUR));
	bpf_emit(g, I_STX(BPF_H, R_SCR, BPF_REG_1, H_NR));
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_1, R_CTX, 0));
	bpf_emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_1, H_RET));
	/* the sender, for a signal sent without siginfo (SEND_SIG_NOINFO) */
	bpf_emit_call(g, BPF_FUNC_get_current_pid_tgid);
	bpf_emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	bpf_emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_0, H_ARGS + 8));
	bpf_emit_call(g, BPF_FUNC_get_current_uid_gid);
	bpf_emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_0, 32));
	bpf_emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	bpf_emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_0, H_ARGS + 24));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, R_CTX, 8));
	bpf_emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_3, H_ARGS + 16));
	read_siginfo(g);
	finish_exit(g, out);
}

/* --event: the raw tracepoint record after the header */
void gen_event(BpfCode *g, bool all, int idx, int size)
{
	int out = bpf_label_new(g);
	bpf_emit(g, I_MOV64_REG(R_CTX, BPF_REG_1));
	pid_filter(g, all, out);
	tg_scratch(g, out);
	hdr_common(g, REC_EVENT);
	bpf_emit(g, I_ST(BPF_H, R_SCR, H_NR, idx));
	bpf_emit(g, I_ST(BPF_W, R_SCR, H_LEN, size));
	bpf_emit_call(g, BPF_FUNC_ktime_get_ns);
	bpf_emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_0, H_TS));
	bpf_emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, TRACE_HDR_SIZE));
	bpf_emit(g, I_MOV64_IMM(BPF_REG_2, size));
	bpf_emit(g, I_MOV64_REG(BPF_REG_3, R_CTX));
	bpf_emit_call(g, BPF_FUNC_probe_read_kernel);
	tg_output(g, -1, TRACE_HDR_SIZE + size);
	finish_exit(g, out);
}
