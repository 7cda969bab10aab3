/* The programs on sys_enter and sys_exit: the entry slot of each thread,
 * records of the calls (or -c's counts in the kernel). */
#include "bpfgen.h"

/* ret_off, passed to what reads the result: where the program finds it in
 * its ctx: RT_NR_RET on the raw tracepoint sys_exit, TP_RET on
 * syscalls:sys_exit_NAME; NO_RET in the entry program (no result yet, and a
 * load past a syscalls:sys_enter_NAME record makes the kernel refuse the
 * attach) */
#define NO_RET (-1)

/* pt_regs offset of syscall argument i: di si dx r10 r8 r9 */
static const int regs_arg[6] = {112, 104, 96, 56, 72, 64};

/* the six argument registers into the record's args */
static void store_args(BpfCode *g)
{
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_10, S_REGS));
	for (int i = 0; i < 6; i++) {
		bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_2, regs_arg[i]));
		bpf_emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_1, H_ARGS + 8 * i));
	}
}

/* plan lookup for nr at S_NR into r9; goto out unless traced */
static void plan_lookup(BpfCode *g, int out)
{
	tg_lookup(g, TM_PLAN, S_NR, out);
	bpf_emit(g, I_MOV64_REG(BPF_REG_9, BPF_REG_0));
	bpf_emit(g, I_LDX(BPF_B, BPF_REG_1, BPF_REG_9, 0));
	bpf_emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_1, PLAN_TRACED));
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, out);
}

/* r8 = this thread's entry slot (tid & (START_SLOTS-1)), pid_tgid saved at
 * S_PIDTGID; r1 = the tid the slot holds, r2 = this thread's tid */
static void thread_slot(BpfCode *g, int out)
{
	bpf_emit_call(g, BPF_FUNC_get_current_pid_tgid);
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, S_PIDTGID));
	bpf_emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_0, START_SLOTS - 1));
	bpf_emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_0, S_IDX));
	tg_lookup(g, TM_START, S_IDX, out);
	bpf_emit(g, I_MOV64_REG(BPF_REG_8, BPF_REG_0));
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_8, 0));
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_2, BPF_REG_10, S_PIDTGID));
}

/* r8 = the slot of this thread, which must be traced (else out).  The slot
 * holds its tid once it has been seen traced (until it exits): then the pid
 * set need not be looked up; else the set is, and the slot claimed. */
static void traced_slot(BpfCode *g, bool all, int out)
{
	int known = bpf_label_new(g);
	thread_slot(g, out);
	bpf_emit_jmp_reg(g, BPF_JEQ, BPF_REG_1, BPF_REG_2, known);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, S_PIDTGID));
	bpf_emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_1, 32));
	bpf_emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_1, S_KEY));
	tg_traced(g, all, S_KEY, out);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, S_PIDTGID));
	bpf_emit(g, I_STX(BPF_W, BPF_REG_8, BPF_REG_1, 0));
	bpf_emit(g, I_ST(BPF_W, BPF_REG_8, 4, SLOT_IDLE));
	bpf_label_place(g, known);
}

static void exit_fill_hdr(BpfCode *g, int ret_off);
static void entry_sigreturn_mask(BpfCode *g);

/* PLAN_ENTRY_READ: the 4 bytes args[entry_arg] points to now, before the
 * call changes them, into the slot's aux (its upper half 1 once read);
 * the exit records them as a CAP_ENTRY capture */
static void entry_read(BpfCode *g)
{
	int skip = bpf_label_new(g), have = bpf_label_new(g);
	bpf_emit(g, I_LDX(BPF_B, BPF_REG_1, BPF_REG_9, 0));
	bpf_emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_1, PLAN_ENTRY_READ));
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, skip);
	bpf_emit(g, I_ST(BPF_DW, BPF_REG_8, SLOT_AUX, 0));
	current_regs(g);
	bpf_emit(g, I_LDX(BPF_B, BPF_REG_2, BPF_REG_9, PLAN_ENTRY_ARG));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_4, BPF_REG_10, S_REGS));
	for (int k = 0; k < 6; k++) {
		int next = bpf_label_new(g);
		bpf_emit_jmp_imm(g, BPF_JNE, BPF_REG_2, k, next);
		bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_4, regs_arg[k]));
		bpf_emit_goto(g, have);
		bpf_label_place(g, next);
	}
	bpf_emit_goto(g, skip);
	bpf_label_place(g, have);
	bpf_emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_8));
	bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, SLOT_AUX));
	bpf_emit(g, I_MOV64_IMM(BPF_REG_2, 4));
	bpf_emit_call(g, BPF_FUNC_probe_read_user);
	bpf_emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, skip);
	bpf_emit(g, I_ST(BPF_W, BPF_REG_8, SLOT_AUX + 4, 1));
	bpf_label_place(g, skip);
}

/* R_SCR = a fixed-size small record reserved in the ring buffer; a full
 * ring counts a loss and goes to out */
static void reserve_small(BpfCode *g, int out)
{
	int have = bpf_label_new(g);
	ld_map(g, BPF_REG_1, TM_RING);
	bpf_emit(g, I_MOV64_IMM(BPF_REG_2, SMALL_REC));
	bpf_emit(g, I_MOV64_IMM(BPF_REG_3, 0));
	bpf_emit_call(g, BPF_FUNC_ringbuf_reserve);
	bpf_emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, have);
	count_lost(g, out);
	bpf_emit_goto(g, out);
	bpf_label_place(g, have);
	bpf_emit(g, I_MOV64_REG(R_SCR, BPF_REG_0));
}

/* PLAN_BLOCKS (-f): a small REC_BLOCK record at entry, with the captures
 * of the arguments as they are now (the call's inputs), so that user space
 * can print "name(inputs <unfinished ...>" when another task's line comes
 * before the call returns */
static void enter_block_record(BpfCode *g, int out)
{
	int skip = bpf_label_new(g);
	bpf_emit(g, I_LDX(BPF_B, BPF_REG_1, BPF_REG_9, 0));
	bpf_emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_1, PLAN_BLOCKS));
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, skip);
	current_regs(g);
	reserve_small(g, out);
	bpf_emit(g, I_ST(BPF_DW, BPF_REG_10, S_DUR, 0));
	exit_fill_hdr(g, NO_RET);
	bpf_emit(g, I_ST(BPF_H, R_SCR, H_TYPE, REC_BLOCK));
	bpf_emit(g, I_ST(BPF_DW, R_SCR, H_RET, 0));
	gen_captures(g, true, SMALL_CAP, TRACE_HDR_SIZE + (SMALL_N - 1) * SMALL_CAP,
		     SMALL_REC, false);
	wake_flags(g);
	bpf_emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	bpf_emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_4));
	bpf_emit_call(g, BPF_FUNC_ringbuf_submit);
	bpf_emit_goto(g, out);
	bpf_label_place(g, skip);
}

void gen_enter(BpfCode *g, const TraceBpf *b, const TraceOpts *o)
{
	int out = bpf_label_new(g);
	bpf_emit(g, I_MOV64_REG(R_CTX, BPF_REG_1));
	traced_slot(g, b->all, out);
	if (b->entry_tp) /* syscalls:sys_enter_NAME: int __syscall_nr at 8 */
		bpf_emit(g, I_LDX(BPF_W, BPF_REG_1, R_CTX, 8));
	else
		bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, R_CTX, RT_NR_RET));
	bpf_emit_jmp_imm(g, BPF_JGT, BPF_REG_1, SYSCALL_MAX - 1, out);
	bpf_emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_1, S_NR));
	plan_lookup(g, out);
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_10, S_NR));
	bpf_emit(g, I_STX(BPF_W, BPF_REG_8, BPF_REG_1, 4));
	if (need_time(o)) {
		bpf_emit_call(g, BPF_FUNC_ktime_get_ns);
		bpf_emit(g, I_STX(BPF_DW, BPF_REG_8, BPF_REG_0, 8));
	} else {
		bpf_emit(g, I_ST(BPF_DW, BPF_REG_8, 8, 0));
	}
	if (o->count)
		goto done; /* -c needs only the time */
	entry_sigreturn_mask(g);
	entry_read(g);
	if (o->follow)
		enter_block_record(g, out);
	/* calls whose arguments vanish (execve) or that never return */
	bpf_emit(g, I_LDX(BPF_B, BPF_REG_1, BPF_REG_9, 0));
	bpf_emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_1, PLAN_AT_ENTRY));
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, out);
	tg_scratch(g, out);
	hdr_common(g, REC_ENTER);
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_10, S_NR));
	bpf_emit(g, I_STX(BPF_H, R_SCR, BPF_REG_1, H_NR));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_8, 8));
	bpf_emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_1, H_TS));
	bpf_emit(g, I_ST(BPF_DW, R_SCR, H_DUR, 0));
	bpf_emit(g, I_ST(BPF_DW, R_SCR, H_RET, 0));
	current_regs(g);
	store_args(g);
	gen_captures(g, false, b->capmax, b->scratch_size - b->capmax - 8, b->scratch_size, true);
	tg_output(g, BPF_REG_8, 0);
done:
	finish_exit(g, out);
}

/* r1 = bucket index (0..TRACE_HIST_BUCKETS-1) of the log2 of r1 */
static void gen_log2_bucket(BpfCode *g)
{
	bpf_emit(g, I_MOV64_IMM(BPF_REG_2, 0));
	bpf_emit_log2_search(g, 32);
	int ok = bpf_label_new(g);
	bpf_emit_jmp_imm(g, BPF_JLT, BPF_REG_2, TRACE_HIST_BUCKETS, ok);
	bpf_emit(g, I_MOV64_IMM(BPF_REG_2, TRACE_HIST_BUCKETS - 1));
	bpf_label_place(g, ok);
	bpf_emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_2));
}

/* the slot must hold this thread's entry into this call; S_NR = nr */
static void exit_match_slot(BpfCode *g, const TraceOpts *o, int out)
{
	/* No pid filter here: only the entry program of a traced thread fills
	 * its slot, so a slot holding this thread's id is the filter. */
	thread_slot(g, out);
	bpf_emit_jmp_reg(g, BPF_JNE, BPF_REG_1, BPF_REG_2, out);
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_8, 4));
	bpf_emit_jmp_imm(g, BPF_JGT, BPF_REG_1, SYSCALL_MAX - 1, out); /* SLOT_IDLE */
	bpf_emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_1, S_NR));
	if (!o->count) {
		/* and the call returning is the one entered: regs->orig_ax (-c
		 * trusts the slot) */
		int same = bpf_label_new(g);
		current_regs(g);
		bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, REGS_ORIG_AX));
		/* rt_sigreturn restores orig_ax to -1: the slot says */
		bpf_emit_jmp_imm(g, BPF_JGT, BPF_REG_1, SYSCALL_MAX - 1, same);
		bpf_emit(g, I_LDX(BPF_W, BPF_REG_2, BPF_REG_10, S_NR));
		bpf_emit_jmp_reg(g, BPF_JNE, BPF_REG_1, BPF_REG_2, out);
		bpf_label_place(g, same);
	}
}

/* -c: count the call (and its latency bucket) in the kernel */
static void exit_count(BpfCode *g, const TraceOpts *o, int ret_off, int out)
{
	int noerr = bpf_label_new(g);
	tg_lookup(g, TM_STATS, S_NR, out);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, 0));
	bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_0, BPF_REG_1, 0));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, 16));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_10, S_DUR));
	bpf_emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_2));
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_0, BPF_REG_1, 16));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, R_CTX, ret_off));
	bpf_emit_jmp_imm(g, BPF_JSGE, BPF_REG_1, 0, noerr);
	bpf_emit_jmp_imm(g, BPF_JSLT, BPF_REG_1, -4095, noerr);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, 8));
	bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_0, BPF_REG_1, 8));
	bpf_label_place(g, noerr);
	if (o->hist) {
		bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, S_DUR));
		gen_log2_bucket(g);
		bpf_emit(g, I_LDX(BPF_W, BPF_REG_2, BPF_REG_10, S_NR));
		bpf_emit(g, I_ALU64_IMM(BPF_MUL, BPF_REG_2, TRACE_HIST_BUCKETS));
		bpf_emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_2));
		bpf_emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_1, S_IDX));
		tg_lookup(g, TM_HIST, S_IDX, out);
		bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, 0));
		bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
		bpf_emit(g, I_STX(BPF_DW, BPF_REG_0, BPF_REG_1, 0));
	}
	finish_exit(g, out);
}

/* the header of a REC_SYSCALL record at R_SCR: nr, entry time, duration,
 * result and the arguments saved in the slot */
/* rt_sigreturn's entry: the mask it restores into the slot (SLOT_AUX) */
static void entry_sigreturn_mask(BpfCode *g)
{
	int nr = syscall_by_name("rt_sigreturn"), skip = bpf_label_new(g);
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_10, S_NR));
	bpf_emit_jmp_imm(g, BPF_JNE, BPF_REG_1, nr, skip);
	bpf_emit(g, I_ST(BPF_DW, BPF_REG_8, SLOT_AUX, 0));
	current_regs(g);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_0, REGS_SP));
	bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, FRAME_SIGMASK));
	bpf_emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_8));
	bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, SLOT_AUX));
	bpf_emit(g, I_MOV64_IMM(BPF_REG_2, 8));
	bpf_emit_call(g, BPF_FUNC_probe_read_user);
	bpf_label_place(g, skip);
}

static void exit_fill_hdr(BpfCode *g, int ret_off)
{
	hdr_common(g, REC_SYSCALL);
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_10, S_NR));
	bpf_emit(g, I_STX(BPF_H, R_SCR, BPF_REG_1, H_NR));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_8, 8));
	bpf_emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_1, H_TS));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, S_DUR));
	bpf_emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_1, H_DUR));
	if (ret_off == NO_RET) {
		bpf_emit(g, I_ST(BPF_DW, R_SCR, H_RET, 0));
	} else {
		bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, R_CTX, ret_off));
		bpf_emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_1, H_RET));
	}
	store_args(g);
	/* what the entry read, for CAP_ENTRY */
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_8, SLOT_AUX));
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_1, S_AUX));
	/* rt_sigreturn has no arguments: args[0] carries its mask */
	int skip = bpf_label_new(g);
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_10, S_NR));
	bpf_emit_jmp_imm(g, BPF_JNE, BPF_REG_1, syscall_by_name("rt_sigreturn"), skip);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_8, SLOT_AUX));
	bpf_emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_1, H_ARGS));
	bpf_label_place(g, skip);
}

/* PLAN_SMALL calls: a fixed-size record reserved in the ring buffer */
static void exit_small_record(BpfCode *g, int ret_off, int out)
{
	reserve_small(g, out);
	exit_fill_hdr(g, ret_off);
	gen_captures(g, true, SMALL_CAP, TRACE_HDR_SIZE + (SMALL_N - 1) * SMALL_CAP,
		     SMALL_REC, false);
	wake_flags(g);
	bpf_emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	bpf_emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_4));
	bpf_emit_call(g, BPF_FUNC_ringbuf_submit);
	bpf_emit_goto(g, out);
}

/* other calls: built in the scratch buffer, then output; a call whose
 * entry was already sent (PLAN_AT_ENTRY) gets a bare REC_EXIT */
static void exit_big_record(BpfCode *g, const TraceBpf *b, int ret_off, int out)
{
	tg_scratch(g, out);
	exit_fill_hdr(g, ret_off);
	int full = bpf_label_new(g);
	bpf_emit(g, I_LDX(BPF_B, BPF_REG_1, BPF_REG_9, 0));
	bpf_emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_1, PLAN_AT_ENTRY));
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, full);
	bpf_emit(g, I_ST(BPF_H, R_SCR, H_TYPE, REC_EXIT));
	tg_output(g, -1, TRACE_HDR_SIZE);
	bpf_emit_goto(g, out);
	bpf_label_place(g, full);
	gen_captures(g, true, b->capmax, b->scratch_size - b->capmax - 8, b->scratch_size, true);
	tg_output(g, BPF_REG_8, 0);
	finish_exit(g, out);
}

/* entry_few: the exit program filters by itself (the slot caches that the
 * thread is traced) and takes the call from regs->orig_ax; only calls sent
 * at entry need their entry seen.  A call in progress when tracing began
 * is shown whole, with its arguments as they are at its return. */
static void exit_match_few(BpfCode *g, bool all, int ret_off, int out)
{
	int next = bpf_label_new(g);
	traced_slot(g, all, out);
	current_regs(g);
	int have = bpf_label_new(g);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, REGS_ORIG_AX));
	bpf_emit_jmp_imm(g, BPF_JLE, BPF_REG_1, SYSCALL_MAX - 1, have);
	/* rt_sigreturn restores orig_ax to -1: its entry marked the slot */
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_8, 4));
	bpf_emit_jmp_imm(g, BPF_JGT, BPF_REG_1, SYSCALL_MAX - 1, out);
	bpf_label_place(g, have);
	bpf_emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_1, S_NR));
	plan_lookup(g, out);
	bpf_emit(g, I_LDX(BPF_B, BPF_REG_1, BPF_REG_9, 0));
	bpf_emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_1, PLAN_AT_ENTRY | PLAN_CHILD0));
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, next);
	int child = bpf_label_new(g);
	bpf_emit_jmp_imm(g, BPF_JNE, BPF_REG_1, PLAN_AT_ENTRY, child);
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_8, 4));
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_2, BPF_REG_10, S_NR));
	bpf_emit_jmp_reg(g, BPF_JNE, BPF_REG_1, BPF_REG_2, out);
	bpf_emit_goto(g, next);
	bpf_label_place(g, child);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, R_CTX, ret_off));
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, out);
	bpf_label_place(g, next);
}

void gen_syscall_exit(BpfCode *g, const TraceBpf *b, const TraceOpts *o)
{
	int ret_off = b->exit_tp ? TP_RET : RT_NR_RET;
	int out = bpf_label_new(g);
	bpf_emit(g, I_MOV64_REG(R_CTX, BPF_REG_1));
	if (b->entry_few) {
		exit_match_few(g, b->all, ret_off, out);
		bpf_emit(g, I_ST(BPF_W, BPF_REG_8, 4, SLOT_IDLE));
	} else {
		exit_match_slot(g, o, out);
		bpf_emit(g, I_ST(BPF_W, BPF_REG_8, 4, SLOT_IDLE));
		if (!o->count) /* -c: the entry program filled the slot only for a traced call */
			plan_lookup(g, out);
	}
	if (need_time(o)) {
		bpf_emit_call(g, BPF_FUNC_ktime_get_ns);
		bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_8, 8));
		bpf_emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_0, BPF_REG_1));
		bpf_emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, S_DUR));
	} else {
		bpf_emit(g, I_ST(BPF_DW, BPF_REG_10, S_DUR, 0));
	}
	if (o->min_dur_ns) {
		bpf_emit_ld_imm64(g, BPF_REG_1, o->min_dur_ns);
		bpf_emit_jmp_reg(g, BPF_JLT, BPF_REG_0, BPF_REG_1, out);
	}
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, R_CTX, ret_off));
	if (o->only_ok)
		bpf_emit_jmp_imm(g, BPF_JSLT, BPF_REG_1, 0, out);
	if (o->only_fail)
		bpf_emit_jmp_imm(g, BPF_JSGE, BPF_REG_1, 0, out);
	if (o->count) {
		exit_count(g, o, ret_off, out);
		return;
	}
	int big = bpf_label_new(g);
	bpf_emit(g, I_LDX(BPF_B, BPF_REG_1, BPF_REG_9, 0));
	bpf_emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_1, PLAN_SMALL));
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, big);
	exit_small_record(g, ret_off, out);
	bpf_label_place(g, big);
	exit_big_record(g, b, ret_off, out);
}
