/* BPF programs for sonde trace, built instruction by instruction with the
 * compiler's emitter (compile/emit.h).  Registers: r6 ctx, r7 the per-CPU
 * record buffer, r8 a record position or an entry slot, r9 the plan. */
#include "bpfprog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <linux/perf_event.h>

#include "../compile/emit.h"
#include "../util/util.h"
#include "decode.h"
#include "sigs.h"

#define START_SLOTS 65536 /* entry slots, indexed by tid & 0xffff */
#define START_SIZE 16     /* u32 tid, u32 nr, u64 ts */
/* The syscall programs are on the raw tracepoints sys_enter(regs, nr) and
 * sys_exit(regs, ret).  The arguments are read where they are needed from
 * the task's struct pt_regs, through the BTF pointer bpf_task_pt_regs
 * returns: plain loads, where a probe_read_kernel of the ctx's untyped
 * pointer cost ~20 ns a call.  The argument registers still hold the
 * arguments when the call returns (execve's are gone: it sends them at
 * entry). */
#define RT_ARG1 8           /* ctx: args[1] = nr at entry, ret at exit */
#define REGS_ORIG_AX 120
#define SLOT_IDLE -1        /* slot nr while no call is pending */
/* pt_regs offset of syscall argument i: di si dx r10 r8 r9 */
static const int regs_arg[6] = {112, 104, 96, 56, 72, 64};
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

static void ld_map(Gen *g, int reg, int map)
{
	emit_ld_map(g, reg, R_MAP, map);
}

/* r0 = lookup(map, r10+keyoff); goto out if NULL */
static void lookup(Gen *g, int map, int keyoff, int out)
{
	ld_map(g, BPF_REG_1, map);
	emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_10));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_2, keyoff));
	emit_call(g, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, out);
}

/* the traced-process filter; leaves pid_tgid at S_PIDTGID */
static void pid_filter(Gen *g, int out)
{
	emit_call(g, BPF_FUNC_get_current_pid_tgid);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, S_PIDTGID));
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_0, S_KEY));
	lookup(g, TM_PIDS, S_KEY, out);
}

/* One scratch slot per CPU in a plain array (a per-CPU array value is
 * limited to 32 KiB, too small for -s 4096 captures). */
static void scratch(Gen *g, int out)
{
	emit_call(g, BPF_FUNC_get_smp_processor_id);
	emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_0, S_IDX));
	lookup(g, TM_SCRATCH, S_IDX, out);
	emit(g, I_MOV64_REG(R_SCR, BPF_REG_0));
}

/* header fields every record has: type, tid, tgid, len 0, caps 0 */
static void hdr_common(Gen *g, int type)
{
	emit(g, I_ST(BPF_H, R_SCR, H_TYPE, type));
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, S_PIDTGID));
	emit(g, I_STX(BPF_W, R_SCR, BPF_REG_1, H_TID));
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_1, 32));
	emit(g, I_STX(BPF_W, R_SCR, BPF_REG_1, H_TGID));
	emit(g, I_ST(BPF_W, R_SCR, H_LEN, 0));
	for (int o = H_CAP; o < H_AUX; o += 4)
		emit(g, I_ST(BPF_W, R_SCR, o, 0));
	emit(g, I_ST(BPF_W, R_SCR, H_AUX, 0));
}

/* r4 = the wake-up flag of a record: none (the reader polls every few
 * ms), unless the ring is filling up: then each record wakes it. */
static void wake_flags(Gen *g)
{
	int quiet = label_new(g);
	ld_map(g, BPF_REG_1, TM_RING);
	emit(g, I_MOV64_IMM(BPF_REG_2, BPF_RB_AVAIL_DATA));
	emit_call(g, BPF_FUNC_ringbuf_query);
	emit(g, I_MOV64_IMM(BPF_REG_4, BPF_RB_NO_WAKEUP));
	emit_jmp_imm(g, BPF_JLT, BPF_REG_0, WAKE_AT, quiet);
	emit(g, I_MOV64_IMM(BPF_REG_4, BPF_RB_FORCE_WAKEUP));
	label_place(g, quiet);
}

/* lost[0] += 1, then on to next */
static void count_lost(Gen *g, int next)
{
	emit(g, I_ST(BPF_W, BPF_REG_10, S_IDX, 0));
	lookup(g, TM_LOST, S_IDX, next);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, 0));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	emit(g, I_STX(BPF_DW, BPF_REG_0, BPF_REG_1, 0));
}

/* ringbuf_output(r7, size in reg); count a loss on failure */
static void output(Gen *g, int size_reg, int size_imm)
{
	wake_flags(g);
	ld_map(g, BPF_REG_1, TM_RING);
	emit(g, I_MOV64_REG(BPF_REG_2, R_SCR));
	if (size_reg >= 0)
		emit(g, I_MOV64_REG(BPF_REG_3, size_reg));
	else
		emit(g, I_MOV64_IMM(BPF_REG_3, size_imm));
	emit_call(g, BPF_FUNC_ringbuf_output);
	int ok = label_new(g);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, ok);
	count_lost(g, ok);
	label_place(g, ok);
}

static void finish_exit(Gen *g, int out)
{
	label_place(g, out);
	emit(g, I_MOV64_IMM(BPF_REG_0, 0));
	emit(g, I_EXIT());
}

/* Make the record position r8 unknown to the verifier (a round trip through
 * the record's len field): paths that reach here with different positions
 * then look alike, so their states prune each other instead of being
 * verified once per combination of earlier captures. */
static void forget_pos(Gen *g)
{
	emit(g, I_STX(BPF_W, R_SCR, BPF_REG_8, H_LEN));
	emit(g, I_LDX(BPF_W, BPF_REG_8, R_SCR, H_LEN));
}

/* S_REGS = the current task's struct pt_regs (a BTF pointer: loads through
 * it need no helper) */
static void current_regs(Gen *g)
{
	emit_call(g, BPF_FUNC_get_current_task_btf);
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_0));
	emit_call(g, BPF_FUNC_task_pt_regs);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, S_REGS));
}

/* the six argument registers into the record's args */
static void store_args(Gen *g)
{
	emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_10, S_REGS));
	for (int i = 0; i < 6; i++) {
		emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_2, regs_arg[i]));
		emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_1, H_ARGS + 8 * i));
	}
}

/* r2 = min(r2, r4, capmax) (unsigned) */
static void clamp_size(Gen *g, int capmax)
{
	int a = label_new(g), b = label_new(g);
	emit_jmp_reg(g, BPF_JLE, BPF_REG_2, BPF_REG_4, a);
	emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_4));
	label_place(g, a);
	emit_jmp_imm(g, BPF_JLE, BPF_REG_2, capmax, b);
	emit(g, I_MOV64_IMM(BPF_REG_2, capmax));
	label_place(g, b);
}

/* r1 = min(r1, value at stack slot off) (unsigned) */
static void min_slot(Gen *g, int reg, int off)
{
	int a = label_new(g);
	emit(g, I_LDX(BPF_DW, BPF_REG_5, BPF_REG_10, off));
	emit_jmp_reg(g, BPF_JLE, reg, BPF_REG_5, a);
	emit(g, I_MOV64_REG(reg, BPF_REG_5));
	label_place(g, a);
}

/* the msg_name of a msghdr read at r8 (r3 its pointer, r2 its length):
 * a u16 length, then up to 128 bytes */
static void iov_msg_name(Gen *g)
{
	int noname = label_new(g), named = label_new(g), small = label_new(g);
	emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
	emit(g, I_ST(BPF_H, BPF_REG_1, 0, 0));
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, 0, noname);
	emit_jmp_imm(g, BPF_JLE, BPF_REG_2, 128, small);
	emit(g, I_MOV64_IMM(BPF_REG_2, 128));
	label_place(g, small);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_2, 0, noname);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_2, S_SIZE));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 2));
	emit_call(g, BPF_FUNC_probe_read_user);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, named);
	emit_goto(g, noname);
	label_place(g, named);
	emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_10, S_SIZE));
	emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
	emit(g, I_STX(BPF_H, BPF_REG_1, BPF_REG_2, 0));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_8, BPF_REG_2));
	label_place(g, noname);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_8, 2));
}

/* iovec k: its struct iovec at r8, then up to elem bytes of its data */
static void iov_element(Gen *g, int k, int elem, int limit, int done)
{
	int nodata = label_new(g), fill = label_new(g);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, S_CNT));
	emit_jmp_imm(g, BPF_JLE, BPF_REG_1, k, done);
	emit_jmp_imm(g, BPF_JGT, BPF_REG_8, limit, done);
	emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
	emit(g, I_MOV64_IMM(BPF_REG_2, 16));
	emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_10, S_PTR));
	if (k)
		emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, 16 * k));
	emit_call(g, BPF_FUNC_probe_read_user);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, done);
	/* n = min(iov_len, size, rem, elem); rem -= min(iov_len, rem) */
	emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
	emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_1, 8));
	min_slot(g, BPF_REG_2, S_REM);
	emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_10, S_REM));
	emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_3, BPF_REG_2));
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_3, S_REM));
	min_slot(g, BPF_REG_2, S_ESZ);
	int ok = label_new(g);
	emit_jmp_imm(g, BPF_JLE, BPF_REG_2, elem, ok);
	emit(g, I_MOV64_IMM(BPF_REG_2, elem));
	label_place(g, ok);
	emit(g, I_ST(BPF_H, BPF_REG_1, 16, 0));
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_2, 0, nodata);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_2, S_SIZE));
	emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_1, 0));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 18));
	emit_call(g, BPF_FUNC_probe_read_user);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, nodata);
	emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_10, S_SIZE));
	emit_jmp_imm(g, BPF_JGT, BPF_REG_2, elem, nodata);
	emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
	emit(g, I_STX(BPF_H, BPF_REG_1, BPF_REG_2, 16));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_8, BPF_REG_2));
	emit_goto(g, fill);
	label_place(g, nodata);
	label_place(g, fill);
	forget_pos(g);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_8, 18));
}

/* CAP_IOV_* and CAP_MSG_* of argument i (kind in r1, element size in r4),
 * at exit: see trace.h for the layout. */
static void gen_iov(Gen *g, int i, int capmax, int limit, int next)
{
	int done = label_new(g), iov = label_new(g), rem_set = label_new(g), in = label_new(g);
	int elem = (capmax - 200) / IOV_CAP - 18;
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_4, S_ESZ));
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_8, S_START));
	emit_ld_imm64(g, BPF_REG_3, 1ull << 40);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_3, S_REM));
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_IOV_IN, in);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_MSG_IN, in);
	emit(g, I_LDX(BPF_DW, BPF_REG_3, R_SCR, H_RET));
	emit_jmp_imm(g, BPF_JSLT, BPF_REG_3, 1, next);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_3, S_REM));
	label_place(g, in);
	/* iov_len and iovcnt from the arguments, */
	emit(g, I_LDX(BPF_DW, BPF_REG_3, R_SCR, H_ARGS + 8 * i));
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_3, S_PTR));
	emit(g, I_LDX(BPF_DW, BPF_REG_3, R_SCR, H_ARGS + 8 * (i + 1)));
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_3, S_CNT));
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_IOV_IN, rem_set);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_IOV_OUT, rem_set);
	/* or from the msghdr */
	emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
	emit(g, I_MOV64_IMM(BPF_REG_2, 56));
	emit(g, I_LDX(BPF_DW, BPF_REG_3, R_SCR, H_ARGS + 8 * i));
	emit_call(g, BPF_FUNC_probe_read_user);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, next);
	emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
	emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_1, 16));
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_3, S_PTR));
	emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_1, 24));
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_3, S_CNT));
	emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_1, 0));  /* msg_name */
	emit(g, I_LDX(BPF_W, BPF_REG_2, BPF_REG_1, 8));   /* msg_namelen */
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_8, 56));
	iov_msg_name(g);
	label_place(g, rem_set);
	(void)iov;
	for (int k = 0; k < IOV_CAP; k++)
		iov_element(g, k, elem, limit, done);
	label_place(g, done);
	emit(g, I_MOV64_REG(BPF_REG_0, BPF_REG_8));
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, S_START));
	emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_0, BPF_REG_1));
	emit(g, I_STX(BPF_H, R_SCR, BPF_REG_0, H_CAP + 2 * i));
	emit_goto(g, next);
}

/* labels for one argument's capture in gen_captures */
typedef struct CapLabels {
	int next, do_read, do_str, failed, got, buf_ret, fixed, argv, envp, iov;
	bool bounce; /* read into S_BOUNCE, then copy into the record */
} CapLabels;

/* r1 = where a capture is read to: the record at r8, or S_BOUNCE.  User
 * memory copied straight into the ring buffer (vmalloc memory) costs the
 * kernel's hardened-usercopy check a vmap-area lookup on every read; the
 * stack costs it a bounds check. */
static void cap_dest(Gen *g, const CapLabels *L)
{
	if (L->bounce) {
		emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_10));
		emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, S_BOUNCE));
	} else {
		emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
		emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
	}
}

/* S_BOUNCE (SMALL_CAP bytes) into the record at r8 */
static void bounce_copy(Gen *g)
{
	emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
	for (int o = 0; o < SMALL_CAP; o += 8) {
		emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_10, S_BOUNCE + o));
		emit(g, I_STX(BPF_DW, BPF_REG_1, BPF_REG_2, o));
	}
}

/* branch on the argument's capture kind; CAP_BUF_ARG and CAP_BUF_RET
 * (at exit) compute the size in r2 here and go to do_read */
static void cap_dispatch(Gen *g, int i, bool at_exit, int limit, bool argv, const CapLabels *L)
{
	emit_jmp_imm(g, BPF_JGT, BPF_REG_8, limit, L->next);
	emit(g, I_LDX(BPF_B, BPF_REG_1, BPF_REG_9, 1 + i)); /* kind */
	emit(g, I_LDX(BPF_H, BPF_REG_4, BPF_REG_9, 24 + 2 * i)); /* size */
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_NONE, L->next);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_STR, L->do_str);
	if (at_exit)
		emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_FIXED, L->fixed);
	if (argv && (i == 1 || i == 2))
		emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_ARGV, L->argv);
	if (argv && (i == 2 || i == 3))
		emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_ENVP, L->envp);
	if (at_exit && argv && i == 1)
		emit_jmp_imm(g, BPF_JGE, BPF_REG_1, CAP_IOV_IN, L->iov);
	if (!at_exit) {
		emit_goto(g, L->next);
		return;
	}
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_BUF_RET, L->buf_ret);
	emit(g, I_LDX(BPF_DW, BPF_REG_3, R_SCR, H_RET));
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_FIXED_OK, L->fixed);
	/* CAP_BUF_ARG: args[lenarg] << shift */
	emit(g, I_LDX(BPF_B, BPF_REG_3, BPF_REG_9, 7 + i));
	emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_3, 7));
	emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_3, 3));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_3, R_SCR));
	emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_3, H_ARGS));
	emit(g, I_LDX(BPF_B, BPF_REG_3, BPF_REG_9, 13 + i));
	emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_3, 7));
	emit(g, I_ALU64_REG(BPF_LSH, BPF_REG_2, BPF_REG_3));
	emit_goto(g, L->do_read);
	/* CAP_BUF_RET: ret > 0 bytes */
	label_place(g, L->buf_ret);
	emit(g, I_LDX(BPF_DW, BPF_REG_2, R_SCR, H_RET));
	emit_jmp_imm(g, BPF_JSLT, BPF_REG_2, 1, L->next);
	emit_goto(g, L->do_read);
}

/* CAP_FIXED (and CAP_FIXED_OK with r3 = ret), then do_read: read r2 bytes
 * (clamped) from args[i] */
static void cap_read_fixed(Gen *g, int i, int capmax, const CapLabels *L)
{
	label_place(g, L->fixed);
	emit(g, I_LDX(BPF_B, BPF_REG_1, BPF_REG_9, 1 + i));
	int fixed = label_new(g);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_1, CAP_FIXED_OK, fixed);
	emit(g, I_LDX(BPF_DW, BPF_REG_3, R_SCR, H_RET));
	emit_jmp_imm(g, BPF_JSLT, BPF_REG_3, 0, L->next);
	label_place(g, fixed);
	emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_4));
	label_place(g, L->do_read);
	clamp_size(g, capmax);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_2, S_SIZE));
	cap_dest(g, L);
	emit(g, I_LDX(BPF_DW, BPF_REG_3, R_SCR, H_ARGS + 8 * i));
	emit_call(g, BPF_FUNC_probe_read_user);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, L->failed);
	emit(g, I_LDX(BPF_DW, BPF_REG_0, BPF_REG_10, S_SIZE));
	emit_goto(g, L->got);
}

/* CAP_STR */
static void cap_read_str(Gen *g, int i, int capmax, const CapLabels *L)
{
	label_place(g, L->do_str);
	emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_4));
	clamp_size(g, capmax);
	emit_jmp_imm(g, BPF_JLT, BPF_REG_2, 1, L->next);
	cap_dest(g, L);
	emit(g, I_LDX(BPF_DW, BPF_REG_3, R_SCR, H_ARGS + 8 * i));
	emit_call(g, BPF_FUNC_probe_read_user_str);
	emit_jmp_imm(g, BPF_JSLT, BPF_REG_0, 0, L->failed);
	emit_goto(g, L->got);
}

/* CAP_ARGV: a "more" byte, then up to ARGV_MAX strings */
static void cap_read_argv(Gen *g, int i, int limit, const CapLabels *L)
{
	label_place(g, L->argv);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_8, S_TMP)); /* start */
	emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
	emit(g, I_ST(BPF_B, BPF_REG_1, 0, 0));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_8, 1));
	int done = label_new(g);
	for (int k = 0; k <= ARGV_MAX; k++) {
		emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_10));
		emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, S_PTR));
		emit(g, I_MOV64_IMM(BPF_REG_2, 8));
		emit(g, I_LDX(BPF_DW, BPF_REG_3, R_SCR, H_ARGS + 8 * i));
		if (k)
			emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, 8 * k));
		emit_call(g, BPF_FUNC_probe_read_user);
		emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, done);
		emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_10, S_PTR));
		emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, 0, done);
		if (k == ARGV_MAX) {
			/* more than ARGV_MAX: set the "more" byte */
			emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, S_TMP));
			emit_jmp_imm(g, BPF_JGT, BPF_REG_1, limit, done);
			emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, R_SCR));
			emit(g, I_ST(BPF_B, BPF_REG_1, 0, 1));
			break;
		}
		emit_jmp_imm(g, BPF_JGT, BPF_REG_8, limit, done);
		emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
		emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
		emit(g, I_MOV64_IMM(BPF_REG_2, ARGV_STR));
		emit_call(g, BPF_FUNC_probe_read_user_str);
		emit_jmp_imm(g, BPF_JSLT, BPF_REG_0, 1, done);
		emit_jmp_imm(g, BPF_JGT, BPF_REG_0, ARGV_STR, done);
		emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_8, BPF_REG_0));
	}
	label_place(g, done);
	/* total = r8 - start; the cap slot gets it, r8 is already advanced */
	emit(g, I_MOV64_REG(BPF_REG_0, BPF_REG_8));
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, S_TMP));
	emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_0, BPF_REG_1));
	emit(g, I_STX(BPF_H, R_SCR, BPF_REG_0, H_CAP + 2 * i));
	emit_goto(g, L->next);
}

/* CAP_ENVP: the pointer array in 256-byte reads, until one fails (the end
 * of the stack); user space counts up to the NULL */
static void cap_read_envp(Gen *g, int i, int limit, const CapLabels *L)
{
	label_place(g, L->envp);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_8, S_TMP)); /* start */
	int done = label_new(g);
	for (int k = 0; k < ENVP_CHUNKS; k++) {
		emit_jmp_imm(g, BPF_JGT, BPF_REG_8, limit, done);
		emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
		emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
		emit(g, I_MOV64_IMM(BPF_REG_2, 256));
		emit(g, I_LDX(BPF_DW, BPF_REG_3, R_SCR, H_ARGS + 8 * i));
		if (k)
			emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, 256 * k));
		emit_call(g, BPF_FUNC_probe_read_user);
		emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, done);
		emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_8, 256));
	}
	label_place(g, done);
	emit(g, I_MOV64_REG(BPF_REG_0, BPF_REG_8));
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, S_TMP));
	emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_0, BPF_REG_1));
	emit(g, I_STX(BPF_H, R_SCR, BPF_REG_0, H_CAP + 2 * i));
	emit_goto(g, L->next);
}

/* failed: mark the cap slot; got: r0 = bytes stored, bound it, then advance */
static void cap_store(Gen *g, int i, int capmax, const CapLabels *L)
{
	label_place(g, L->failed);
	emit(g, I_ST(BPF_H, R_SCR, H_CAP + 2 * i, CAP_FAILED));
	emit_goto(g, L->next);
	label_place(g, L->got);
	emit_jmp_imm(g, BPF_JGT, BPF_REG_0, capmax, L->next);
	emit(g, I_STX(BPF_H, R_SCR, BPF_REG_0, H_CAP + 2 * i));
	if (L->bounce) {
		emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, S_TMP));
		bounce_copy(g);
		emit(g, I_LDX(BPF_DW, BPF_REG_0, BPF_REG_10, S_TMP));
	}
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_8, BPF_REG_0));
	label_place(g, L->next);
	forget_pos(g);
}

/* Captures of argument memory, appended at r8 (the record position), each
 * at most capmax bytes, none started past limit; the record is bound bytes
 * (limit + capmax <= bound; argv, when generated, needs ARGV_STR there). At
 * entry (at_exit false) the outputs of the call do not exist yet. */
static void gen_captures(Gen *g, bool at_exit, int capmax, int limit, int bound, bool argv)
{
	/* small records (capmax SMALL_CAP) are ring-buffer reservations: their
	 * captures go through the stack */
	bool bounce = capmax == SMALL_CAP;
	for (int o = 0; bounce && o < SMALL_CAP; o += 8)
		emit(g, I_ST(BPF_DW, BPF_REG_10, S_BOUNCE + o, 0));
	emit(g, I_MOV64_IMM(BPF_REG_8, TRACE_HDR_SIZE));
	/* at entry only execve/execveat/exit/exit_group are sent: a path and
	 * an argv in the first three arguments (a smaller program verifies
	 * much faster) */
	int nargs = at_exit ? 6 : 4;
	for (int i = 0; i < nargs; i++) {
		CapLabels L;
		L.next = label_new(g), L.do_read = label_new(g), L.do_str = label_new(g);
		L.failed = label_new(g), L.got = label_new(g);
		L.buf_ret = label_new(g), L.fixed = label_new(g), L.argv = label_new(g);
		L.iov = label_new(g), L.envp = label_new(g);
		L.bounce = bounce;
		cap_dispatch(g, i, at_exit, limit, argv, &L);
		if (at_exit)
			cap_read_fixed(g, i, capmax, &L);
		cap_read_str(g, i, capmax, &L);
		if (argv && (i == 1 || i == 2))
			cap_read_argv(g, i, limit, &L);
		if (argv && (i == 2 || i == 3))
			cap_read_envp(g, i, limit, &L);
		if (at_exit && argv && i == 1) {
			label_place(g, L.iov);
			gen_iov(g, i, capmax, limit, L.next);
		}
		cap_store(g, i, capmax, &L);
	}
	/* len = r8 - header; r8 bounded for the verifier */
	int ok = label_new(g);
	emit_jmp_imm(g, BPF_JLE, BPF_REG_8, bound, ok);
	emit(g, I_MOV64_IMM(BPF_REG_8, TRACE_HDR_SIZE));
	label_place(g, ok);
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_8));
	emit(g, I_ALU64_IMM(BPF_SUB, BPF_REG_1, TRACE_HDR_SIZE));
	emit(g, I_STX(BPF_W, R_SCR, BPF_REG_1, H_LEN));
}

/* plan lookup for nr at S_NR into r9; goto out unless traced */
static void plan_lookup(Gen *g, int out)
{
	lookup(g, TM_PLAN, S_NR, out);
	emit(g, I_MOV64_REG(BPF_REG_9, BPF_REG_0));
	emit(g, I_LDX(BPF_B, BPF_REG_1, BPF_REG_9, 0));
	emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_1, PLAN_TRACED));
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, out);
}

/* Whether calls need their entry time and duration: not for a plain live
 * trace without timestamps (each clock read is a visible part of a call's
 * cost); ts and dur are then 0. */
static bool need_time(const TraceOpts *o)
{
	return o->record_path || o->tstamp || o->relative || o->show_time || o->count ||
	       o->count_and_print || o->min_dur_ns || o->hist;
}

/* r8 = this thread's entry slot (tid & (START_SLOTS-1)), pid_tgid saved at
 * S_PIDTGID; r1 = the tid the slot holds, r2 = this thread's tid */
static void thread_slot(Gen *g, int out)
{
	emit_call(g, BPF_FUNC_get_current_pid_tgid);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, S_PIDTGID));
	emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_0, START_SLOTS - 1));
	emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_0, S_IDX));
	lookup(g, TM_START, S_IDX, out);
	emit(g, I_MOV64_REG(BPF_REG_8, BPF_REG_0));
	emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_8, 0));
	emit(g, I_LDX(BPF_W, BPF_REG_2, BPF_REG_10, S_PIDTGID));
}

static void exit_fill_hdr(Gen *g);

/* PLAN_BLOCKS (-f): a small REC_BLOCK record at entry, with the captures
 * of the arguments as they are now (the call's inputs), so that user space
 * can print "name(inputs <unfinished ...>" when another task's line comes
 * before the call returns */
/* R_SCR = a fixed-size small record reserved in the ring buffer; a full
 * ring counts a loss and goes to out */
static void reserve_small(Gen *g, int out)
{
	int have = label_new(g);
	ld_map(g, BPF_REG_1, TM_RING);
	emit(g, I_MOV64_IMM(BPF_REG_2, SMALL_REC));
	emit(g, I_MOV64_IMM(BPF_REG_3, 0));
	emit_call(g, BPF_FUNC_ringbuf_reserve);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, have);
	count_lost(g, out);
	emit_goto(g, out);
	label_place(g, have);
	emit(g, I_MOV64_REG(R_SCR, BPF_REG_0));
}

static void enter_block_record(Gen *g, int out)
{
	int skip = label_new(g);
	emit(g, I_LDX(BPF_B, BPF_REG_1, BPF_REG_9, 0));
	emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_1, PLAN_BLOCKS));
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, skip);
	current_regs(g);
	reserve_small(g, out);
	emit(g, I_ST(BPF_DW, BPF_REG_10, S_DUR, 0));
	exit_fill_hdr(g);
	emit(g, I_ST(BPF_H, R_SCR, H_TYPE, REC_BLOCK));
	emit(g, I_ST(BPF_DW, R_SCR, H_RET, 0));
	gen_captures(g, true, SMALL_CAP, TRACE_HDR_SIZE + (SMALL_N - 1) * SMALL_CAP,
		     SMALL_REC, false);
	wake_flags(g);
	emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_4));
	emit_call(g, BPF_FUNC_ringbuf_submit);
	emit_goto(g, out);
	label_place(g, skip);
}

static void gen_enter(Gen *g, const TraceBpf *b, const TraceOpts *o)
{
	int out = label_new(g), traced = label_new(g);
	emit(g, I_MOV64_REG(R_CTX, BPF_REG_1));
	/* The thread's slot holds its tid once it has been seen traced (until
	 * it exits): then the pid set need not be looked up. */
	thread_slot(g, out);
	emit_jmp_reg(g, BPF_JEQ, BPF_REG_1, BPF_REG_2, traced);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, S_PIDTGID));
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_1, 32));
	emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_1, S_KEY));
	lookup(g, TM_PIDS, S_KEY, out);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, S_PIDTGID));
	emit(g, I_STX(BPF_W, BPF_REG_8, BPF_REG_1, 0));
	emit(g, I_ST(BPF_W, BPF_REG_8, 4, SLOT_IDLE));
	label_place(g, traced);
	if (b->entry_few) /* syscalls:sys_enter_NAME: int __syscall_nr at 8 */
		emit(g, I_LDX(BPF_W, BPF_REG_1, R_CTX, 8));
	else
		emit(g, I_LDX(BPF_DW, BPF_REG_1, R_CTX, RT_ARG1));
	emit_jmp_imm(g, BPF_JGT, BPF_REG_1, SYSCALL_MAX - 1, out);
	emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_1, S_NR));
	plan_lookup(g, out);
	emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_10, S_NR));
	emit(g, I_STX(BPF_W, BPF_REG_8, BPF_REG_1, 4));
	if (need_time(o)) {
		emit_call(g, BPF_FUNC_ktime_get_ns);
		emit(g, I_STX(BPF_DW, BPF_REG_8, BPF_REG_0, 8));
	} else {
		emit(g, I_ST(BPF_DW, BPF_REG_8, 8, 0));
	}
	if (o->count)
		goto done; /* -c needs only the time */
	if (o->follow)
		enter_block_record(g, out);
	/* calls whose arguments vanish (execve) or that never return */
	emit(g, I_LDX(BPF_B, BPF_REG_1, BPF_REG_9, 0));
	emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_1, PLAN_AT_ENTRY));
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, out);
	scratch(g, out);
	hdr_common(g, REC_ENTER);
	emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_10, S_NR));
	emit(g, I_STX(BPF_H, R_SCR, BPF_REG_1, H_NR));
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_8, 8));
	emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_1, H_TS));
	emit(g, I_ST(BPF_DW, R_SCR, H_DUR, 0));
	emit(g, I_ST(BPF_DW, R_SCR, H_RET, 0));
	current_regs(g);
	store_args(g);
	gen_captures(g, false, b->capmax, b->scratch_size - b->capmax - 8, b->scratch_size, true);
	output(g, BPF_REG_8, 0);
done:
	finish_exit(g, out);
}

/* r1 = bucket index (0..TRACE_HIST_BUCKETS-1) of the log2 of r1 */
static void gen_log2(Gen *g)
{
	emit(g, I_MOV64_IMM(BPF_REG_2, 0));
	for (int s = 32; s; s >>= 1) {
		int skip = label_new(g);
		emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_1));
		emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_3, s));
		emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, 0, skip);
		emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_3));
		emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_2, s));
		label_place(g, skip);
	}
	int ok = label_new(g);
	emit_jmp_imm(g, BPF_JLT, BPF_REG_2, TRACE_HIST_BUCKETS, ok);
	emit(g, I_MOV64_IMM(BPF_REG_2, TRACE_HIST_BUCKETS - 1));
	label_place(g, ok);
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_2));
}

/* the slot must hold this thread's entry into this call; S_NR = nr */
static void exit_match_slot(Gen *g, const TraceOpts *o, int out)
{
	/* No pid filter here: only the entry program of a traced thread fills
	 * its slot, so a slot holding this thread's id is the filter. */
	thread_slot(g, out);
	emit_jmp_reg(g, BPF_JNE, BPF_REG_1, BPF_REG_2, out);
	emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_8, 4));
	emit_jmp_imm(g, BPF_JGT, BPF_REG_1, SYSCALL_MAX - 1, out); /* SLOT_IDLE */
	emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_1, S_NR));
	if (!o->count) {
		/* and the call returning is the one entered: regs->orig_ax (-c
		 * trusts the slot) */
		current_regs(g);
		emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, REGS_ORIG_AX));
		emit(g, I_LDX(BPF_W, BPF_REG_2, BPF_REG_10, S_NR));
		emit_jmp_reg(g, BPF_JNE, BPF_REG_1, BPF_REG_2, out);
	}
}

/* -c: count the call (and its latency bucket) in the kernel */
static void exit_count(Gen *g, const TraceOpts *o, int out)
{
	int noerr = label_new(g);
	lookup(g, TM_STATS, S_NR, out);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, 0));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	emit(g, I_STX(BPF_DW, BPF_REG_0, BPF_REG_1, 0));
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, 16));
	emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_10, S_DUR));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_2));
	emit(g, I_STX(BPF_DW, BPF_REG_0, BPF_REG_1, 16));
	emit(g, I_LDX(BPF_DW, BPF_REG_1, R_CTX, RT_ARG1));
	emit_jmp_imm(g, BPF_JSGE, BPF_REG_1, 0, noerr);
	emit_jmp_imm(g, BPF_JSLT, BPF_REG_1, -4095, noerr);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, 8));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	emit(g, I_STX(BPF_DW, BPF_REG_0, BPF_REG_1, 8));
	label_place(g, noerr);
	if (o->hist) {
		emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, S_DUR));
		gen_log2(g);
		emit(g, I_LDX(BPF_W, BPF_REG_2, BPF_REG_10, S_NR));
		emit(g, I_ALU64_IMM(BPF_MUL, BPF_REG_2, TRACE_HIST_BUCKETS));
		emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_2));
		emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_1, S_IDX));
		lookup(g, TM_HIST, S_IDX, out);
		emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, 0));
		emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
		emit(g, I_STX(BPF_DW, BPF_REG_0, BPF_REG_1, 0));
	}
	finish_exit(g, out);
}

/* the header of a REC_SYSCALL record at R_SCR: nr, entry time, duration,
 * result and the arguments saved in the slot */
static void exit_fill_hdr(Gen *g)
{
	hdr_common(g, REC_SYSCALL);
	emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_10, S_NR));
	emit(g, I_STX(BPF_H, R_SCR, BPF_REG_1, H_NR));
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_8, 8));
	emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_1, H_TS));
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, S_DUR));
	emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_1, H_DUR));
	emit(g, I_LDX(BPF_DW, BPF_REG_1, R_CTX, RT_ARG1));
	emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_1, H_RET));
	store_args(g);
}

/* PLAN_SMALL calls: a fixed-size record reserved in the ring buffer */
static void exit_small_record(Gen *g, int out)
{
	reserve_small(g, out);
	exit_fill_hdr(g);
	gen_captures(g, true, SMALL_CAP, TRACE_HDR_SIZE + (SMALL_N - 1) * SMALL_CAP,
		     SMALL_REC, false);
	wake_flags(g);
	emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_4));
	emit_call(g, BPF_FUNC_ringbuf_submit);
	emit_goto(g, out);
}

/* other calls: built in the scratch buffer, then output; a call whose
 * entry was already sent (PLAN_AT_ENTRY) gets a bare REC_EXIT */
static void exit_big_record(Gen *g, const TraceBpf *b, int out)
{
	scratch(g, out);
	exit_fill_hdr(g);
	int full = label_new(g);
	emit(g, I_LDX(BPF_B, BPF_REG_1, BPF_REG_9, 0));
	emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_1, PLAN_AT_ENTRY));
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, full);
	emit(g, I_ST(BPF_H, R_SCR, H_TYPE, REC_EXIT));
	output(g, -1, TRACE_HDR_SIZE);
	emit_goto(g, out);
	label_place(g, full);
	gen_captures(g, true, b->capmax, b->scratch_size - b->capmax - 8, b->scratch_size, true);
	output(g, BPF_REG_8, 0);
	finish_exit(g, out);
}

/* entry_few: the exit program filters by itself (the slot caches that the
 * thread is traced) and takes the call from regs->orig_ax; only calls sent
 * at entry need their entry seen.  A call in progress when tracing began
 * is shown whole, with its arguments as they are at its return. */
static void exit_match_few(Gen *g, int out)
{
	int known = label_new(g), next = label_new(g);
	thread_slot(g, out);
	emit_jmp_reg(g, BPF_JEQ, BPF_REG_1, BPF_REG_2, known);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, S_PIDTGID));
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_1, 32));
	emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_1, S_KEY));
	lookup(g, TM_PIDS, S_KEY, out);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, S_PIDTGID));
	emit(g, I_STX(BPF_W, BPF_REG_8, BPF_REG_1, 0));
	emit(g, I_ST(BPF_W, BPF_REG_8, 4, SLOT_IDLE));
	label_place(g, known);
	current_regs(g);
	int have = label_new(g);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, REGS_ORIG_AX));
	emit_jmp_imm(g, BPF_JLE, BPF_REG_1, SYSCALL_MAX - 1, have);
	/* rt_sigreturn restores orig_ax to -1: its entry marked the slot */
	emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_8, 4));
	emit_jmp_imm(g, BPF_JGT, BPF_REG_1, SYSCALL_MAX - 1, out);
	label_place(g, have);
	emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_1, S_NR));
	plan_lookup(g, out);
	emit(g, I_LDX(BPF_B, BPF_REG_1, BPF_REG_9, 0));
	emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_1, PLAN_AT_ENTRY | PLAN_CHILD0));
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, next);
	int child = label_new(g);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_1, PLAN_AT_ENTRY, child);
	emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_8, 4));
	emit(g, I_LDX(BPF_W, BPF_REG_2, BPF_REG_10, S_NR));
	emit_jmp_reg(g, BPF_JNE, BPF_REG_1, BPF_REG_2, out);
	emit_goto(g, next);
	label_place(g, child);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, R_CTX, RT_ARG1));
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, out);
	label_place(g, next);
}

static void gen_exit(Gen *g, const TraceBpf *b, const TraceOpts *o)
{
	int out = label_new(g);
	emit(g, I_MOV64_REG(R_CTX, BPF_REG_1));
	if (b->entry_few) {
		exit_match_few(g, out);
		emit(g, I_ST(BPF_W, BPF_REG_8, 4, SLOT_IDLE));
	} else {
		exit_match_slot(g, o, out);
		emit(g, I_ST(BPF_W, BPF_REG_8, 4, SLOT_IDLE));
		if (!o->count) /* -c: the entry program filled the slot only for a traced call */
			plan_lookup(g, out);
	}
	if (need_time(o)) {
		emit_call(g, BPF_FUNC_ktime_get_ns);
		emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_8, 8));
		emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_0, BPF_REG_1));
		emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, S_DUR));
	} else {
		emit(g, I_ST(BPF_DW, BPF_REG_10, S_DUR, 0));
	}
	if (o->min_dur_ns) {
		emit_ld_imm64(g, BPF_REG_1, o->min_dur_ns);
		emit_jmp_reg(g, BPF_JLT, BPF_REG_0, BPF_REG_1, out);
	}
	emit(g, I_LDX(BPF_DW, BPF_REG_1, R_CTX, RT_ARG1));
	if (o->only_ok)
		emit_jmp_imm(g, BPF_JSLT, BPF_REG_1, 0, out);
	if (o->only_fail)
		emit_jmp_imm(g, BPF_JSGE, BPF_REG_1, 0, out);
	if (o->count) {
		exit_count(g, o, out);
		return;
	}
	int big = label_new(g);
	emit(g, I_LDX(BPF_B, BPF_REG_1, BPF_REG_9, 0));
	emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_1, PLAN_SMALL));
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, big);
	exit_small_record(g, out);
	label_place(g, big);
	exit_big_record(g, b, out);
}

/* sched_process_fork: the child of a traced process is traced (-f) */
static void gen_fork(Gen *g)
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
	scratch(g, out);
	hdr_common(g, REC_FORK);
	emit(g, I_LDX(BPF_W, BPF_REG_1, R_CTX, 20));
	emit(g, I_STX(BPF_W, R_SCR, BPF_REG_1, H_AUX));
	emit_call(g, BPF_FUNC_ktime_get_ns);
	emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_0, H_TS));
	output(g, -1, TRACE_HDR_SIZE);
	finish_exit(g, out);
}

/* sched_process_exit of a whole process: its exit code, from task_struct */
static void gen_proc_exit(Gen *g, int exit_code_off)
{
	int out = label_new(g);
	emit(g, I_MOV64_REG(R_CTX, BPF_REG_1));
	pid_filter(g, out);
	/* the thread's slot stops marking it traced (its tid may be reused) */
	int kept = label_new(g);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, S_PIDTGID));
	emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_1, START_SLOTS - 1));
	emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_1, S_IDX));
	lookup(g, TM_START, S_IDX, kept);
	emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_0, 0));
	emit(g, I_LDX(BPF_W, BPF_REG_2, BPF_REG_10, S_PIDTGID));
	emit_jmp_reg(g, BPF_JNE, BPF_REG_1, BPF_REG_2, kept);
	emit(g, I_ST(BPF_W, BPF_REG_0, 0, 0));
	label_place(g, kept);
	/* a thread of a process that goes on: a REC_PROC_EXIT with nr 1 (the
	 * reader counts the tasks traced, for strace's [pid N] prefixes) */
	int group = label_new(g);
	emit(g, I_LDX(BPF_B, BPF_REG_1, R_CTX, 32)); /* group_dead */
	emit_jmp_imm(g, BPF_JNE, BPF_REG_1, 0, group);
	scratch(g, out);
	hdr_common(g, REC_PROC_EXIT);
	emit(g, I_ST(BPF_H, R_SCR, H_NR, 1));
	emit(g, I_ST(BPF_DW, R_SCR, H_RET, 0));
	emit(g, I_ST(BPF_DW, R_SCR, H_TS, 0));
	output(g, -1, TRACE_HDR_SIZE);
	emit_goto(g, out);
	label_place(g, group);
	scratch(g, out);
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
	output(g, -1, TRACE_HDR_SIZE);
	ld_map(g, BPF_REG_1, TM_PIDS);
	emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_10));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_2, S_KEY));
	emit_call(g, BPF_FUNC_map_delete_elem);
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
	output(g, -1, TRACE_HDR_SIZE + SIGINFO_LEN);
}

/* raw tracepoint signal_deliver(sig, struct kernel_siginfo *, ka): a signal
 * the current thread takes (handler or default action) */
static void gen_signal(Gen *g)
{
	int out = label_new(g);
	emit(g, I_MOV64_REG(R_CTX, BPF_REG_1));
	pid_filter(g, out);
	scratch(g, out);
	hdr_common(g, REC_SIGNAL);
	emit(g, I_ST(BPF_H, R_SCR, H_NR, SIG_DELIVERED));
	emit(g, I_LDX(BPF_W, BPF_REG_1, R_CTX, 0));
	emit(g, I_STX(BPF_DW, R_SCR, BPF_REG_1, H_RET));
	emit(g, I_LDX(BPF_DW, BPF_REG_3, R_CTX, 8));
	read_siginfo(g);
	finish_exit(g, out);
}

/* raw tracepoint signal_generate(sig, info, task, group, result): a signal
 * sent to a traced process that the kernel drops at once because it is
 * ignored (SIGCHLD by default) never reaches signal_deliver; strace sees it
 * (ptrace keeps it), so it is sent from here, for the target task. */
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

static void gen_siggen(Gen *g, const TraceBpf *b, const TaskOffsets *t)
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
	lookup(g, TM_PIDS, S_KEY, out);
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
		emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_10, S_NR));
		emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_1, START_SLOTS - 1));
		emit(g, I_STX(BPF_W, BPF_REG_10, BPF_REG_1, S_IDX));
		lookup(g, TM_START, S_IDX, idle);
		emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_0, 0));
		emit(g, I_LDX(BPF_W, BPF_REG_2, BPF_REG_10, S_NR));
		emit_jmp_reg(g, BPF_JNE, BPF_REG_1, BPF_REG_2, idle);
		emit(g, I_LDX(BPF_W, BPF_REG_1, BPF_REG_0, 4));
		emit_jmp_imm(g, BPF_JGT, BPF_REG_1, SYSCALL_MAX - 1, idle);
	}
	label_place(g, in_call);
	emit(g, I_ST(BPF_DW, BPF_REG_10, S_DUR, SIG_IGNORED_IN_CALL));
	label_place(g, idle);
	scratch(g, out);
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
static void gen_event(Gen *g, int idx, int size)
{
	int out = label_new(g);
	emit(g, I_MOV64_REG(R_CTX, BPF_REG_1));
	pid_filter(g, out);
	scratch(g, out);
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
	output(g, -1, TRACE_HDR_SIZE + size);
	finish_exit(g, out);
}

/* byte offsets of task_struct members from the kernel's BTF, -1 if unknown */
static void task_offsets(TaskOffsets *t)
{
	t->exit_code = t->pid = t->tgid = t->state = -1;
	struct btf *btf = btf__load_vmlinux_btf();
	if (!btf)
		return;
	int id = btf__find_by_name_kind(btf, "task_struct", BTF_KIND_STRUCT);
	if (id > 0) {
		const struct btf_type *ty = btf__type_by_id(btf, (uint32_t)id);
		const struct btf_member *m = btf_members(ty);
		for (int i = 0; i < btf_vlen(ty); i++, m++) {
			const char *n = btf__name_by_offset(btf, m->name_off);
			int off = (int)(btf_member_bit_offset(ty, (uint32_t)i) / 8);
			if (!strcmp(n, "exit_code"))
				t->exit_code = off;
			else if (!strcmp(n, "pid"))
				t->pid = off;
			else if (!strcmp(n, "tgid"))
				t->tgid = off;
			else if (!strcmp(n, "__state"))
				t->state = off;
		}
	}
	btf__free(btf);
}

static int map_create(TraceBpf *b, int idx, enum bpf_map_type type, const char *name,
		      uint32_t ks, uint32_t vs, uint32_t n, char *err, size_t errlen)
{
	int fd = bpf_map_create(type, name, ks, vs, n, NULL);
	if (fd < 0) {
		if (fd == -EPERM)
			snprintf(err, errlen, "sonde trace needs root, or the capabilities CAP_BPF "
					      "and CAP_PERFMON: run it with sudo");
		else
			snprintf(err, errlen, "creating map %s: %s", name, strerror(-fd));
	}
	b->map_fd[idx] = fd;
	return fd;
}

/* -v: "sonde trace: sys_exit: 1863 insns, verified in 7774 us (5895 insns
 * processed)", from the statistics at the end of the verifier's log */
static void verifier_stats(const char *what, int insns, const char *log)
{
	const char *t = strstr(log, "verification time "), *p = strstr(log, "processed ");
	long us = t ? atol(t + 18) : -1, processed = p ? atol(p + 10) : -1;
	fprintf(stderr, "sonde trace: %s: %d insns, verified in %ld us (%ld insns processed)\n",
		what, insns, us, processed);
}

static int load_type(TraceBpf *b, Gen *g, enum bpf_prog_type type, const char *what,
		     bool verbose, char *err, size_t errlen)
{
	if (!emit_finish(g)) {
		snprintf(err, errlen, "%s: program too large", what);
		return -1;
	}
	for (int i = 0; i < g->relocs.n; i++)
		g->insns.v[g->relocs.v[i].insn].imm = b->map_fd[g->relocs.v[i].arg];
	/* -v: the whole log on a rejection, the verifier's statistics otherwise */
	size_t logsz = verbose ? (16u << 20) : 0;
	char *log = logsz ? xcalloc(1, logsz) : NULL;
	LIBBPF_OPTS(bpf_prog_load_opts, o, .log_buf = log, .log_size = (uint32_t)logsz,
		    .log_level = log ? 1 | 4 : 0);
	int fd = bpf_prog_load(type, "sondetrace", "GPL", g->insns.v,
			       (size_t)g->insns.n, &o);
	if (fd < 0) {
		if (fd == -EPERM)
			snprintf(err, errlen, "sonde trace needs root, or the capabilities CAP_BPF "
					      "and CAP_PERFMON: run it with sudo");
		else
			snprintf(err, errlen, "the kernel refused the %s program: %s%s", what,
				 strerror(-fd), verbose ? "" : " (run with -v for the log)");
		if (log)
			fprintf(stderr, "%s\n", log + (strlen(log) > 4000 ? strlen(log) - 4000 : 0));
	}
	else if (log)
		verifier_stats(what, g->insns.n, log);
	free(log);
	vec_free(&g->insns);
	vec_free(&g->lines);
	vec_free(&g->relocs);
	vec_free(&g->labels);
	vec_free(&g->fixups);
	return fd;
}

static int load(TraceBpf *b, Gen *g, const char *what, bool verbose, char *err, size_t errlen)
{
	return load_type(b, g, BPF_PROG_TYPE_TRACEPOINT, what, verbose, err, errlen);
}

enum { P_ENTER, P_EXIT, P_FORK, P_PEXIT, P_SIGNAL, P_SIGGEN, P_EVENT0 };

/* the maps the programs share */
static bool create_maps(TraceBpf *b, const TraceOpts *o, char *err, size_t errlen)
{
	if (map_create(b, TM_PIDS, BPF_MAP_TYPE_HASH, "trace_pids", 4, 4, 8192, err, errlen) < 0 ||
	    map_create(b, TM_START, BPF_MAP_TYPE_ARRAY, "trace_start", 4, START_SIZE, START_SLOTS,
		       err, errlen) < 0 ||
	    map_create(b, TM_PLAN, BPF_MAP_TYPE_ARRAY, "trace_plan", 4, sizeof(TracePlan),
		       SYSCALL_MAX, err, errlen) < 0 ||
	    map_create(b, TM_SCRATCH, BPF_MAP_TYPE_ARRAY, "trace_scratch", 4,
		       (uint32_t)b->scratch_size, (uint32_t)libbpf_num_possible_cpus(), err,
		       errlen) < 0 ||
	    map_create(b, TM_RING, BPF_MAP_TYPE_RINGBUF, "trace_ring", 0, 0,
		       o->count ? 4096 * 16 : RING_SIZE, err, errlen) < 0 ||
	    map_create(b, TM_LOST, BPF_MAP_TYPE_PERCPU_ARRAY, "trace_lost", 4, 8, 1, err,
		       errlen) < 0 ||
	    map_create(b, TM_STATS, BPF_MAP_TYPE_PERCPU_ARRAY, "trace_stats", 4, sizeof(TraceStat),
		       SYSCALL_MAX, err, errlen) < 0 ||
	    map_create(b, TM_HIST, BPF_MAP_TYPE_PERCPU_ARRAY, "trace_hist", 4, 8,
		       o->hist ? SYSCALL_MAX * TRACE_HIST_BUCKETS : 1, err, errlen) < 0)
		return false;
	return true;
}

/* Whether entries can be taken only where needed (see entry_few): not
 * when every call needs its entry (times, -c, -f's unfinished calls), nor
 * without the syscalls:sys_enter_NAME events (a kernel without
 * CONFIG_FTRACE_SYSCALLS), nor for more entry calls than expected. */
static void choose_entries(TraceBpf *b, const TraceOpts *o)
{
	b->entry_few = false;
	b->nentry = 0;
	if (need_time(o) || o->follow || o->count)
		return;
	for (uint32_t nr = 0; nr < SYSCALL_MAX; nr++) {
		TracePlan p;
		plan_for((int)nr, o, &p);
		/* rt_sigreturn's number is gone at its exit (see exit_match_few) */
		bool mark = !strcmp(syscall_table[nr].name ? syscall_table[nr].name : "",
				    "rt_sigreturn");
		if (!(p.flags & PLAN_TRACED) || !((p.flags & PLAN_AT_ENTRY) || mark))
			continue;
		TpFormat f = {0};
		char name[64], why[256];
		snprintf(name, sizeof(name), "sys_enter_%s", syscall_table[nr].name);
		bool have = b->nentry < 8 && tracefs_read_format("syscalls", name, &f, why, sizeof(why));
		tp_format_free(&f);
		if (!have)
			return;
		b->entry_nrs[b->nentry++] = (int)nr;
	}
	b->entry_few = true;
}

bool tbpf_load(TraceBpf *b, const TraceOpts *o, char *err, size_t errlen)
{
	for (int i = 0; i < TM_COUNT; i++)
		b->map_fd[i] = -1;
	int ncpu = libbpf_num_possible_cpus();
	(void)ncpu;
	b->capmax = 4096;
	while (b->capmax < o->strsize + 1 && b->capmax < 65536)
		b->capmax *= 2;
	b->scratch_size = TRACE_HDR_SIZE + 6 * b->capmax + 64;
	Error e = {0};
	if (!create_maps(b, o, err, errlen))
		return false;
	if (!tbpf_set_plans(b, o)) {
		snprintf(err, errlen, "filling the plan map: %s", strerror(errno));
		return false;
	}
	Gen g = {.err = &e};
	int fd;
	if (!o->no_syscalls) {
		choose_entries(b, o);
		gen_enter(&g, b, o);
		if ((fd = load_type(b, &g,
				    b->entry_few ? BPF_PROG_TYPE_TRACEPOINT
						 : BPF_PROG_TYPE_RAW_TRACEPOINT,
				    "sys_enter", o->verbose, err, errlen)) < 0)
			return false;
		b->prog_fds[b->nprogs++] = fd;
		g = (Gen){.err = &e};
		gen_exit(&g, b, o);
		if ((fd = load_type(b, &g, BPF_PROG_TYPE_RAW_TRACEPOINT, "sys_exit", o->verbose,
				    err, errlen)) < 0)
			return false;
		b->prog_fds[b->nprogs++] = fd;
	} else {
		b->prog_fds[b->nprogs++] = -1;
		b->prog_fds[b->nprogs++] = -1;
	}
	g = (Gen){.err = &e};
	gen_fork(&g);
	if ((fd = load(b, &g, "sched_process_fork", o->verbose, err, errlen)) < 0)
		return false;
	b->prog_fds[b->nprogs++] = o->follow ? fd : (close(fd), -1);
	g = (Gen){.err = &e};
	TaskOffsets to;
	task_offsets(&to);
	gen_proc_exit(&g, to.exit_code);
	if ((fd = load(b, &g, "sched_process_exit", o->verbose, err, errlen)) < 0)
		return false;
	b->prog_fds[b->nprogs++] = fd;
	g = (Gen){.err = &e};
	gen_signal(&g);
	if ((fd = load_type(b, &g, BPF_PROG_TYPE_RAW_TRACEPOINT, "signal_deliver", o->verbose,
			    err, errlen)) < 0)
		return false;
	b->prog_fds[b->nprogs++] = o->count ? (close(fd), -1) : fd;
	fd = -1;
	if (!o->count && to.pid >= 0 && to.tgid >= 0) {
		g = (Gen){.err = &e};
		gen_siggen(&g, b, &to);
		if ((fd = load_type(b, &g, BPF_PROG_TYPE_RAW_TRACEPOINT, "signal_generate",
				    o->verbose, err, errlen)) < 0)
			return false;
	}
	b->prog_fds[b->nprogs++] = fd;
	for (int i = 0; i < b->nevents && b->nprogs < 16; i++) {
		g = (Gen){.err = &e};
		gen_event(&g, i, b->events[i].size);
		if ((fd = load(b, &g, b->events[i].name, o->verbose, err, errlen)) < 0)
			return false;
		b->prog_fds[b->nprogs++] = fd;
	}
	return true;
}

static bool attach_tp(TraceBpf *b, const char *cat, const char *name, int prog_fd, char *err,
		      size_t errlen)
{
	TpFormat f = {0};
	char why[256];
	if (!tracefs_read_format(cat, name, &f, why, sizeof(why))) {
		snprintf(err, errlen, "tracepoint %s:%s: %s", cat, name, why);
		tp_format_free(&f);
		return false;
	}
	int pfd = open_perf_event(PERF_TYPE_TRACEPOINT, (uint64_t)f.id, 1, false, -1, 0, why,
				  sizeof(why));
	tp_format_free(&f);
	if (pfd < 0 || !attach_perf_event(pfd, prog_fd, &b->attached, why, sizeof(why))) {
		snprintf(err, errlen, "attaching %s:%s: %s%s", cat, name, why,
			 pfd == -EACCES || pfd == -EPERM ? " (needs root, or CAP_PERFMON)" : "");
		return false;
	}
	return true;
}

bool tbpf_attach(TraceBpf *b, const TraceOpts *o, char *err, size_t errlen)
{
	(void)o;
	static const char *const tps[][2] = {{"raw_syscalls", "sys_enter"},
					     {"raw_syscalls", "sys_exit"},
					     {"sched", "sched_process_fork"},
					     {"sched", "sched_process_exit"},
					     {"signal", "signal_deliver"},
					     {"signal", "signal_generate"}};
	/* exit first, so that no call is seen entering without its exit
	 * program in place */
	static const int order[] = {P_FORK, P_PEXIT, P_SIGNAL, P_SIGGEN, P_EXIT, P_ENTER};
	for (int k = 0; k < 6; k++) {
		int i = order[k];
		if (b->prog_fds[i] < 0)
			continue;
		if (i == P_ENTER && b->entry_few) {
			for (int k = 0; k < b->nentry; k++) {
				char name[64];
				snprintf(name, sizeof(name), "sys_enter_%s",
					 syscall_table[b->entry_nrs[k]].name);
				if (!attach_tp(b, "syscalls", name, b->prog_fds[i], err, errlen))
					return false;
			}
		} else if (i == P_ENTER || i == P_EXIT || i == P_SIGNAL || i == P_SIGGEN) {
			/* raw tracepoints: the link fd detaches when closed, also
			 * when sonde is killed */
			int fd = bpf_raw_tracepoint_open(tps[i][1], b->prog_fds[i]);
			if (fd < 0) {
				snprintf(err, errlen, "attaching raw tracepoint %s: %s%s", tps[i][1],
					 strerror(-fd),
					 fd == -EACCES || fd == -EPERM ? " (needs root, or CAP_BPF "
									 "and CAP_PERFMON)"
								       : "");
				return false;
			}
			attached_add(&b->attached, fd);
		} else if (!attach_tp(b, tps[i][0], tps[i][1], b->prog_fds[i], err, errlen)) {
			return false;
		}
	}
	for (int i = 0; i < b->nevents; i++)
		if (!attach_tp(b, b->events[i].cat, b->events[i].name, b->prog_fds[P_EVENT0 + i], err,
			       errlen))
			return false;
	return true;
}

bool tbpf_add_pid(TraceBpf *b, int pid)
{
	uint32_t k = (uint32_t)pid, v = 1;
	return bpf_map_update_elem(b->map_fd[TM_PIDS], &k, &v, BPF_ANY) == 0;
}

int tbpf_npids(TraceBpf *b)
{
	uint32_t k, next;
	int n = 0;
	uint32_t *prev = NULL;
	while (bpf_map_get_next_key(b->map_fd[TM_PIDS], prev, &next) == 0) {
		k = next;
		prev = &k;
		n++;
	}
	return n;
}

uint64_t tbpf_lost(TraceBpf *b)
{
	int ncpu = libbpf_num_possible_cpus();
	uint64_t vals[ncpu > 0 ? ncpu : 1], total = 0;
	uint32_t key = 0;
	if (bpf_map_lookup_elem(b->map_fd[TM_LOST], &key, vals))
		return 0;
	for (int i = 0; i < ncpu; i++)
		total += vals[i];
	return total;
}

void tbpf_detach_async(TraceBpf *b, int out_fd)
{
	attached_close_after_exit(&b->attached, out_fd);
}

void tbpf_close(TraceBpf *b)
{
	attached_close(&b->attached);
	for (int i = 0; i < b->nprogs; i++)
		if (b->prog_fds[i] >= 0)
			close(b->prog_fds[i]);
	b->nprogs = 0;
	for (int i = 0; i < TM_COUNT; i++)
		if (b->map_fd[i] >= 0)
			close(b->map_fd[i]);
}

/* calls strace may show as <unfinished ...> under -f */
static bool may_block(int nr)
{
	static const char *const names[] = {
		"wait4", "waitid", "read", "poll", "ppoll", "select", "pselect6", "epoll_wait",
		"epoll_pwait", "futex", "nanosleep", "clock_nanosleep", "accept", "accept4",
		"recvfrom", "recvmsg", "connect", "pause", NULL};
	const char *n = syscall_table[nr].name;
	for (int i = 0; n && names[i]; i++)
		if (!strcmp(n, names[i]))
			return true;
	return false;
}

bool tbpf_set_plans(TraceBpf *b, const TraceOpts *o)
{
	for (uint32_t nr = 0; nr < SYSCALL_MAX; nr++) {
		TracePlan p;
		plan_for((int)nr, o, &p);
		if (o->count) {
			p.flags = o->sel[nr] ? PLAN_TRACED : 0;
		} else if ((p.flags & PLAN_TRACED) && !(p.flags & PLAN_AT_ENTRY)) {
			int n = 0, big = 0;
			for (int i = 0; i < 6; i++)
				if (p.kind[i] != CAP_NONE) {
					n++;
					big |= p.kind[i] >= CAP_ARGV || p.size[i] > SMALL_CAP;
				}
			if (n <= SMALL_N && !big)
				p.flags |= PLAN_SMALL;
			if (o->follow && may_block((int)nr))
				p.flags |= PLAN_BLOCKS;
		}
		if (bpf_map_update_elem(b->map_fd[TM_PLAN], &nr, &p, BPF_ANY))
			return false;
	}
	return true;
}
