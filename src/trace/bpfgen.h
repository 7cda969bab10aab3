/* Shared by the generators of sonde trace's BPF programs and by bpfprog.c,
 * which loads them: record and stack layouts, and the emit helpers. */
#pragma once
#include "../bpf/emit.h"
#include "bpfprog.h"

/* BPF programs for sonde trace, built instruction by instruction with the
 * compiler's emitter (bpf/emit.h).  Registers: r6 ctx, r7 the per-CPU
 * record buffer, r8 a record position or an entry slot, r9 the plan. */

#define START_SLOTS 65536 /* entry slots, indexed by tid & 0xffff */
#define START_SIZE 24     /* u32 tid, u32 nr, u64 ts, u64 aux (see SLOT_AUX) */
/* slot offset of the mask rt_sigreturn restores, read at its entry from
 * the signal frame (uc_sigmask, 296 bytes above the stack pointer: after
 * uc_flags, uc_link, uc_stack and the 256-byte sigcontext); its exit
 * shows it as strace does, rt_sigreturn({mask=[...]}) */
#define SLOT_AUX 16
#define REGS_SP 152
#define FRAME_SIGMASK 296
/* The syscall programs are on the raw tracepoints sys_enter(regs, nr) and
 * sys_exit(regs, ret).  The arguments are read where they are needed from
 * the task's struct pt_regs, through the BTF pointer bpf_task_pt_regs
 * returns: plain loads, where a probe_read_kernel of the ctx's untyped
 * pointer cost ~20 ns a call.  The argument registers still hold the
 * arguments when the call returns (execve's are gone: it sends them at
 * entry). */
#define RT_NR_RET 8         /* ctx: args[1] = nr at entry, ret at exit */
#define TP_RET 16           /* syscalls:sys_exit_NAME: long ret */
#define REGS_ORIG_AX 120
#define SLOT_IDLE -1        /* slot nr while no call is pending */
#define ARGV_MAX 16
#define ARGV_STR 256
/* Records of calls whose captures are few and small (PLAN_SMALL: at most
 * SMALL_N arguments of at most SMALL_CAP bytes) are written straight into a
 * fixed-size ring-buffer reservation; the reader uses the header's len. */
#define SMALL_CAP 64
#define SMALL_N 2
#define SMALL_REC (TRACE_HDR_SIZE + SMALL_N * SMALL_CAP)
#define RING_SIZE (32u << 20)
#define WAKE_AT (RING_SIZE / 4) /* bytes waiting that make a record wake the reader */

/* offsets in struct task_struct, from the kernel's BTF (-1: unknown) */
typedef struct TaskOffsets {
	int exit_code, pid, tgid, state;
} TaskOffsets;

/* stack slots (r10-relative) */
#define S_PIDTGID -8
#define S_KEY -16
#define S_NR -20
#define S_IDX -24
#define S_DUR -32
#define S_SIZE -40
#define S_TMP -48
#define S_PTR -56
#define S_ESZ -64
#define S_CNT -72
#define S_REM -80
#define S_START -88
#define S_REGS -96          /* the struct pt_regs * (BTF) of the task */
#define S_BOUNCE -160       /* SMALL_CAP bytes: small captures land here first */
#define S_AUX -168          /* the slot's aux at exit: CAP_ENTRY's value, whether it was read */
#define PLAN_ENTRY_ARG 19   /* TracePlan.entry_arg */

/* record field offsets */
#define H_TYPE 0
#define H_NR 2
#define H_TID 4
#define H_TGID 8
#define H_LEN 12
#define H_TS 16
#define H_DUR 24
#define H_RET 32
#define H_ARGS 40
#define H_CAP 88
#define H_AUX 100

/* bpfgen.c */
void ld_map(BpfCode *g, int reg, int map);
void tg_lookup(BpfCode *g, int map, int keyoff, int out);
void tg_traced(BpfCode *g, bool all, int keyoff, int out);
void tg_scratch(BpfCode *g, int out);
void hdr_common(BpfCode *g, int type);
void wake_flags(BpfCode *g);
void count_lost(BpfCode *g, int next);
void tg_output(BpfCode *g, int size_reg, int size_imm);
void finish_exit(BpfCode *g, int out);
void current_regs(BpfCode *g);
bool need_time(const TraceOpts *o);

/* bpf_capture.c */
void gen_captures(BpfCode *g, bool at_exit, int capmax, int limit, int bound, bool argv);

/* bpf_syscall.c */
void gen_enter(BpfCode *g, const TraceBpf *b, const TraceOpts *o);
void gen_syscall_exit(BpfCode *g, const TraceBpf *b, const TraceOpts *o);

/* bpf_task.c */
void gen_fork(BpfCode *g, bool all);
void gen_exec(BpfCode *g, bool all);
void gen_proc_exit(BpfCode *g, bool all, int exit_code_off);
void gen_signal_delivery(BpfCode *g, bool all);
void gen_siggen(BpfCode *g, const TraceBpf *b, const TaskOffsets *t);
void gen_event(BpfCode *g, bool all, int idx, int size);
