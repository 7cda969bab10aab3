/* Captures of the memory a call's arguments point to (buffers, strings,
 * argv/envp, iovecs and msghdrs), appended to the record being built. */
#include "bpfgen.h"

/* Make the record position r8 unknown to the verifier (a round trip through
 * the record's len field): paths that reach here with different positions
 * then look alike, so their states prune each other instead of being
 * verified once per combination of earlier captures. */
static void forget_pos(BpfCode *g)
{
	bpf_emit(g, I_STX(BPF_W, R_SCR, BPF_REG_8, H_LEN));
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_8, R_SCR, H_LEN));
}

/* r2 = min(r2, r4, capmax) (unsigned) */
static void clamp_size(BpfCode *g, int capmax)
{
	int a = bpf_label_new(g), b = bpf_label_new(g);
	bpf_emit_jmp_reg(g, BPF_JLE, BPF_REG_2, BPF_REG_4, a);
	bpf_emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_4));
	bpf_label_place(g, a);
	bpf_emit_jmp_imm(g, BPF_JLE, BPF_REG_2, capmax, b);
	bpf_emit(g, I_MOV64_IMM(BPF_REG_2, capmax));
	bpf_label_place(g, b);
}

/* r1 = min(r1, value at stack slot off) (unsigned) */
static void min_slot(BpfCode *g, int reg, int off)
{
	int a = bpf_label_new(g);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_5, BPF_REG_10, off));
	bpf_emit_jmp_reg(g, BPF_JLE, reg, BPF_REG_5, a);
	bpf_emit(g, I_MOV64_REG(reg, BPF_REG_5));
	bpf_label_place(g, a);
}

/* the msg_name of a msghdr read at r8 (r3 its pointer, r2 its length):
 * a u16 length, then up to 128 bytes */
static void iov_msg_name(BpfCode *g)
{
	int noname = bpf_label_new(g), named = bpf_label_new(g), small = bpf_label_new(g);
	bpf_emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	bpf_emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
	bpf_emit(g, I_ST(BPF_H, BPF_REG_1, 0, 0));
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, 0, noname);
	bpf_emit_jmp_imm(g, BPF_JLE, BPF_REG_2, 128, small);
	bpf_emit(g, I_MOV64_IMM(BPF_REG_2, 128));
	bpf_label_place(g, small);
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_2, 0, noname);
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_2, S_SIZE));
	bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 2));
	bpf_emit_call(g, BPF_FUNC_probe_read_user);
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, named);
	bpf_emit_goto(g, noname);
	bpf_label_place(g, named);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_10, S_SIZE));
	bpf_emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	bpf_emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
	bpf_emit(g, I_STX(BPF_H, BPF_REG_1, BPF_REG_2, 0));
	bpf_emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_8, BPF_REG_2));
	bpf_label_place(g, noname);
	bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_8, 2));
}

/* iovec k: its struct iovec at r8, then up to elem bytes of its data */
static void iov_element(BpfCode *g, int k, int elem, int limit, int done)
{
	int nodata = bpf_label_new(g), fill = bpf_label_new(g);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, S_CNT));
	bpf_emit_jmp_imm(g, BPF_JLE, BPF_REG_1, k, done);
	bpf_emit_jmp_imm(g, BPF_JGT, BPF_REG_8, limit, done);
	bpf_emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	bpf_emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
	bpf_emit(g, I_MOV64_IMM(BPF_REG_2, 16));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_10, S_PTR));
	if (k)
		bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, 16 * k));
	bpf_emit_call(g, BPF_FUNC_probe_read_user);
	bpf_emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, done);
	/* n = min(iov_len, size, rem, elem); rem -= min(iov_len, rem) */
	bpf_emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	bpf_emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_1, 8));
	min_slot(g, BPF_REG_2, S_REM);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_10, S_REM));
	bpf_emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_3, BPF_REG_2));
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_3, S_REM));
	min_slot(g, BPF_REG_2, S_ESZ);
	int ok = bpf_label_new(g);
	bpf_emit_jmp_imm(g, BPF_JLE, BPF_REG_2, elem, ok);
	bpf_emit(g, I_MOV64_IMM(BPF_REG_2, elem));
	bpf_label_place(g, ok);
	bpf_emit(g, I_ST(BPF_H, BPF_REG_1, 16, 0));
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_2, 0, nodata);
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_2, S_SIZE));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_1, 0));
	bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 18));
	bpf_emit_call(g, BPF_FUNC_probe_read_user);
	bpf_emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, nodata);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_10, S_SIZE));
	bpf_emit_jmp_imm(g, BPF_JGT, BPF_REG_2, elem, nodata);
	bpf_emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	bpf_emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
	bpf_emit(g, I_STX(BPF_H, BPF_REG_1, BPF_REG_2, 16));
	bpf_emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_8, BPF_REG_2));
	bpf_emit_goto(g, fill);
	bpf_label_place(g, nodata);
	bpf_label_place(g, fill);
	forget_pos(g);
	bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_8, 18));
}

/* argument i's capture length: r8 (already advanced) minus the start
 * saved at stack slot start_slot; then on to next */
static void cap_len_since(BpfCode *g, int i, int start_slot, int next)
{
	bpf_emit(g, I_MOV64_REG(BPF_REG_0, BPF_REG_8));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, start_slot));
	bpf_emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_0, BPF_REG_1));
	bpf_emit(g, I_STX(BPF_H, R_SCR, BPF_REG_0, H_CAP + 2 * i));
	bpf_emit_goto(g, next);
}

/* CAP_IOV_* and CAP_MSG_* of argument i (kind in r1, element size in r4),
 * at exit: see trace.h for the layout. */
static void gen_iov(BpfCode *g, int i, int capmax, int limit, int next)
{
	int done = bpf_label_new(g), iov = bpf_label_new(g), rem_set = bpf_label_new(g),
	    in = bpf_label_new(g);
	int elem = (capmax - 200) / IOV_CAP - 18;
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_4, S_ESZ));
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_8, S_START));
	bpf_emit_ld_imm64(g, BPF_REG_3, 1ull << 40);
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_3, S_REM));
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_IOV_IN, in);
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_MSG_IN, in);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, R_SCR, H_RET));
	bpf_emit_jmp_imm(g, BPF_JSLT, BPF_REG_3, 1, next);
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_3, S_REM));
	bpf_label_place(g, in);
	/* iov_len and iovcnt from the arguments, */
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, R_SCR, H_ARGS + 8 * i));
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_3, S_PTR));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, R_SCR, H_ARGS + 8 * (i + 1)));
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_3, S_CNT));
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_IOV_IN, rem_set);
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_IOV_OUT, rem_set);
	/* or from the msghdr */
	bpf_emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	bpf_emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
	bpf_emit(g, I_MOV64_IMM(BPF_REG_2, 56));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, R_SCR, H_ARGS + 8 * i));
	bpf_emit_call(g, BPF_FUNC_probe_read_user);
	bpf_emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, next);
	bpf_emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	bpf_emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_1, 16));
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_3, S_PTR));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_1, 24));
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_3, S_CNT));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_1, 0));  /* msg_name */
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_2, BPF_REG_1, 8));   /* msg_namelen */
	bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_8, 56));
	iov_msg_name(g);
	bpf_label_place(g, rem_set);
	(void)iov;
	for (int k = 0; k < IOV_CAP; k++)
		iov_element(g, k, elem, limit, done);
	bpf_label_place(g, done);
	cap_len_since(g, i, S_START, next);
}

/* labels for one argument's capture in gen_captures */
typedef struct CapLabels {
	int next, do_read, do_str, failed, got, buf_ret, fixed, argv, envp, iov, upto, entry;
	bool bounce; /* read into S_BOUNCE, then copy into the record */
} CapLabels;

/* r1 = where a capture is read to: the record at r8, or S_BOUNCE.  User
 * memory copied straight into the ring buffer (vmalloc memory) costs the
 * kernel's hardened-usercopy check a vmap-area lookup on every read; the
 * stack costs it a bounds check. */
static void cap_dest(BpfCode *g, const CapLabels *L)
{
	if (L->bounce) {
		bpf_emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_10));
		bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, S_BOUNCE));
	} else {
		bpf_emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
		bpf_emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
	}
}

/* S_BOUNCE (SMALL_CAP bytes) into the record at r8 */
static void bounce_copy(BpfCode *g)
{
	bpf_emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	bpf_emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
	for (int o = 0; o < SMALL_CAP; o += 8) {
		bpf_emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_10, S_BOUNCE + o));
		bpf_emit(g, I_STX(BPF_DW, BPF_REG_1, BPF_REG_2, o));
	}
}

/* branch on the argument's capture kind; CAP_BUF_ARG and CAP_BUF_RET
 * (at exit) compute the size in r2 here and go to do_read */
static void cap_dispatch(BpfCode *g, int i, bool at_exit, int limit, bool argv,
			 const CapLabels *L)
{
	bpf_emit_jmp_imm(g, BPF_JGT, BPF_REG_8, limit, L->next);
	bpf_emit(g, I_LDX(BPF_B, BPF_REG_1, BPF_REG_9, 1 + i)); /* kind */
	bpf_emit(g, I_LDX(BPF_H, BPF_REG_4, BPF_REG_9, 24 + 2 * i)); /* size */
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_NONE, L->next);
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_STR, L->do_str);
	if (at_exit) {
		bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_FIXED, L->fixed);
		bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_UPTO, L->upto);
		bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_ENTRY, L->entry);
	}
	if (argv && (i == 1 || i == 2))
		bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_ARGV, L->argv);
	if (argv && (i == 2 || i == 3))
		bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_ENVP, L->envp);
	if (at_exit && argv && i == 1)
		bpf_emit_jmp_imm(g, BPF_JGE, BPF_REG_1, CAP_IOV_IN, L->iov);
	if (!at_exit) {
		bpf_emit_goto(g, L->next);
		return;
	}
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_BUF_RET, L->buf_ret);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, R_SCR, H_RET));
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, CAP_FIXED_OK, L->fixed);
	/* CAP_BUF_ARG: args[lenarg] << shift */
	bpf_emit(g, I_LDX(BPF_B, BPF_REG_3, BPF_REG_9, 7 + i));
	bpf_emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_3, 7));
	bpf_emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_3, 3));
	bpf_emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_3, R_SCR));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_3, H_ARGS));
	bpf_emit(g, I_LDX(BPF_B, BPF_REG_3, BPF_REG_9, 13 + i));
	bpf_emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_3, 7));
	bpf_emit(g, I_ALU64_REG(BPF_LSH, BPF_REG_2, BPF_REG_3));
	bpf_emit_goto(g, L->do_read);
	/* CAP_BUF_RET: ret > 0 elements of 1 << shift bytes, at most
	 * args[lenarg] bytes when lenarg is not 0 (a recvfrom with MSG_TRUNC
	 * returns more than its buffer holds) */
	bpf_label_place(g, L->buf_ret);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_2, R_SCR, H_RET));
	bpf_emit_jmp_imm(g, BPF_JSLT, BPF_REG_2, 1, L->next);
	bpf_emit(g, I_LDX(BPF_B, BPF_REG_3, BPF_REG_9, 13 + i));
	bpf_emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_3, 7));
	bpf_emit(g, I_ALU64_REG(BPF_LSH, BPF_REG_2, BPF_REG_3));
	bpf_emit(g, I_LDX(BPF_B, BPF_REG_3, BPF_REG_9, 7 + i));
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, 0, L->do_read);
	bpf_emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_3, 7));
	bpf_emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_3, 3));
	bpf_emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_3, R_SCR));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_3, H_ARGS));
	bpf_emit_jmp_reg(g, BPF_JLE, BPF_REG_2, BPF_REG_3, L->do_read);
	bpf_emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_3));
	bpf_emit_goto(g, L->do_read);
	/* CAP_UPTO: what is left of the page args[i] starts in */
	bpf_label_place(g, L->upto);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, R_SCR, H_ARGS + 8 * i));
	bpf_emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_3, 4095));
	bpf_emit(g, I_MOV64_IMM(BPF_REG_2, 4096));
	bpf_emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_2, BPF_REG_3));
	bpf_emit_goto(g, L->do_read);
}

/* CAP_FIXED (and CAP_FIXED_OK with r3 = ret), then do_read: read r2 bytes
 * (clamped) from args[i] */
static void cap_read_fixed(BpfCode *g, int i, int capmax, const CapLabels *L)
{
	bpf_label_place(g, L->fixed);
	bpf_emit(g, I_LDX(BPF_B, BPF_REG_1, BPF_REG_9, 1 + i));
	int fixed = bpf_label_new(g);
	bpf_emit_jmp_imm(g, BPF_JNE, BPF_REG_1, CAP_FIXED_OK, fixed);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, R_SCR, H_RET));
	bpf_emit_jmp_imm(g, BPF_JSLT, BPF_REG_3, 0, L->next);
	bpf_label_place(g, fixed);
	bpf_emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_4));
	bpf_label_place(g, L->do_read);
	clamp_size(g, capmax);
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_2, S_SIZE));
	cap_dest(g, L);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, R_SCR, H_ARGS + 8 * i));
	bpf_emit_call(g, BPF_FUNC_probe_read_user);
	bpf_emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, L->failed);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_0, BPF_REG_10, S_SIZE));
	bpf_emit_goto(g, L->got);
}

/* CAP_ENTRY: the value the entry read (S_AUX), if it could */
static void cap_entry_value(BpfCode *g, const CapLabels *L)
{
	bpf_label_place(g, L->entry);
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_2, BPF_REG_10, S_AUX + 4));
	bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_2, 0, L->failed);
	cap_dest(g, L);
	bpf_emit(g, I_LDX(BPF_W, BPF_REG_2, BPF_REG_10, S_AUX));
	bpf_emit(g, I_STX(BPF_W, BPF_REG_1, BPF_REG_2, 0));
	bpf_emit(g, I_MOV64_IMM(BPF_REG_0, 4));
	bpf_emit_goto(g, L->got);
}

/* CAP_STR */
static void cap_read_str(BpfCode *g, int i, int capmax, const CapLabels *L)
{
	bpf_label_place(g, L->do_str);
	bpf_emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_4));
	clamp_size(g, capmax);
	bpf_emit_jmp_imm(g, BPF_JLT, BPF_REG_2, 1, L->next);
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_2, S_SIZE));
	cap_dest(g, L);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, R_SCR, H_ARGS + 8 * i));
	bpf_emit_call(g, BPF_FUNC_probe_read_user_str);
	bpf_emit_jmp_imm(g, BPF_JSLT, BPF_REG_0, 0, L->failed);
	/* a full read ends in the helper's NUL whether or not the string does:
	 * its own byte there instead (0 also when unreadable) tells a string of
	 * size - 1 bytes from a longer one, which strace cuts with "..." */
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_10, S_SIZE));
	bpf_emit_jmp_reg(g, BPF_JNE, BPF_REG_0, BPF_REG_2, L->got);
	bpf_emit(g, I_ALU64_IMM(BPF_SUB, BPF_REG_2, 1));
	cap_dest(g, L);
	bpf_emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_2));
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, R_SCR, H_ARGS + 8 * i));
	bpf_emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_3, BPF_REG_2));
	bpf_emit(g, I_MOV64_IMM(BPF_REG_2, 1));
	bpf_emit_call(g, BPF_FUNC_probe_read_user);
	bpf_emit(g, I_LDX(BPF_DW, BPF_REG_0, BPF_REG_10, S_SIZE));
	bpf_emit_goto(g, L->got);
}

/* CAP_ARGV: a "more" byte, then up to ARGV_MAX strings */
static void cap_read_argv(BpfCode *g, int i, int limit, const CapLabels *L)
{
	bpf_label_place(g, L->argv);
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_8, S_TMP)); /* start */
	bpf_emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	bpf_emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
	bpf_emit(g, I_ST(BPF_B, BPF_REG_1, 0, 0));
	bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_8, 1));
	int done = bpf_label_new(g);
	for (int k = 0; k <= ARGV_MAX; k++) {
		bpf_emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_10));
		bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, S_PTR));
		bpf_emit(g, I_MOV64_IMM(BPF_REG_2, 8));
		bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, R_SCR, H_ARGS + 8 * i));
		if (k)
			bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, 8 * k));
		bpf_emit_call(g, BPF_FUNC_probe_read_user);
		bpf_emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, done);
		bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_10, S_PTR));
		bpf_emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, 0, done);
		if (k == ARGV_MAX) {
			/* more than ARGV_MAX: set the "more" byte */
			bpf_emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, S_TMP));
			bpf_emit_jmp_imm(g, BPF_JGT, BPF_REG_1, limit, done);
			bpf_emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, R_SCR));
			bpf_emit(g, I_ST(BPF_B, BPF_REG_1, 0, 1));
			break;
		}
		bpf_emit_jmp_imm(g, BPF_JGT, BPF_REG_8, limit, done);
		bpf_emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
		bpf_emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
		bpf_emit(g, I_MOV64_IMM(BPF_REG_2, ARGV_STR));
		bpf_emit_call(g, BPF_FUNC_probe_read_user_str);
		bpf_emit_jmp_imm(g, BPF_JSLT, BPF_REG_0, 1, done);
		bpf_emit_jmp_imm(g, BPF_JGT, BPF_REG_0, ARGV_STR, done);
		bpf_emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_8, BPF_REG_0));
	}
	bpf_label_place(g, done);
	cap_len_since(g, i, S_TMP, L->next);
}

/* CAP_ENVP: the pointer array in 256-byte reads, until one fails (the end
 * of the stack); user space counts up to the NULL */
static void cap_read_envp(BpfCode *g, int i, int limit, const CapLabels *L)
{
	bpf_label_place(g, L->envp);
	bpf_emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_8, S_TMP)); /* start */
	int done = bpf_label_new(g);
	for (int k = 0; k < ENVP_CHUNKS; k++) {
		bpf_emit_jmp_imm(g, BPF_JGT, BPF_REG_8, limit, done);
		bpf_emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
		bpf_emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_8));
		bpf_emit(g, I_MOV64_IMM(BPF_REG_2, 256));
		bpf_emit(g, I_LDX(BPF_DW, BPF_REG_3, R_SCR, H_ARGS + 8 * i));
		if (k)
			bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, 256 * k));
		bpf_emit_call(g, BPF_FUNC_probe_read_user);
		bpf_emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, done);
		bpf_emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_8, 256));
	}
	bpf_label_place(g, done);
	cap_len_since(g, i, S_TMP, L->next);
}

/* failed: mark the cap slot; got: r0 = bytes stored, bound it, then advance */
static void cap_store(BpfCode *g, int i, int capmax, const CapLabels *L)
{
	bpf_label_place(g, L->failed);
	bpf_emit(g, I_ST(BPF_H, R_SCR, H_CAP + 2 * i, CAP_FAILED));
	bpf_emit_goto(g, L->next);
	bpf_label_place(g, L->got);
	bpf_emit_jmp_imm(g, BPF_JGT, BPF_REG_0, capmax, L->next);
	bpf_emit(g, I_STX(BPF_H, R_SCR, BPF_REG_0, H_CAP + 2 * i));
	if (L->bounce) {
		bpf_emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, S_TMP));
		bounce_copy(g);
		bpf_emit(g, I_LDX(BPF_DW, BPF_REG_0, BPF_REG_10, S_TMP));
	}
	bpf_emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_8, BPF_REG_0));
	bpf_label_place(g, L->next);
	forget_pos(g);
}

/* Captures of argument memory, appended at r8 (the record position), each
 * at most capmax bytes, none started past limit; the record is bound bytes
 * (limit + capmax <= bound; argv, when generated, needs ARGV_STR there). At
 * entry (at_exit false) the outputs of the call do not exist yet. */
void gen_captures(BpfCode *g, bool at_exit, int capmax, int limit, int bound, bool argv)
{
	/* small records (capmax SMALL_CAP) are ring-buffer reservations: their
	 * captures go through the stack */
	bool bounce = capmax == SMALL_CAP;
	for (int o = 0; bounce && o < SMALL_CAP; o += 8)
		bpf_emit(g, I_ST(BPF_DW, BPF_REG_10, S_BOUNCE + o, 0));
	bpf_emit(g, I_MOV64_IMM(BPF_REG_8, TRACE_HDR_SIZE));
	/* at entry only execve/execveat/exit/exit_group are sent: a path and
	 * an argv in the first three arguments (a smaller program verifies
	 * much faster) */
	int nargs = at_exit ? 6 : 4;
	for (int i = 0; i < nargs; i++) {
		CapLabels L;
		L.next = bpf_label_new(g), L.do_read = bpf_label_new(g), L.do_str = bpf_label_new(g);
		L.failed = bpf_label_new(g), L.got = bpf_label_new(g);
		L.buf_ret = bpf_label_new(g), L.fixed = bpf_label_new(g), L.argv = bpf_label_new(g);
		L.iov = bpf_label_new(g), L.envp = bpf_label_new(g), L.upto = bpf_label_new(g);
		L.entry = bpf_label_new(g);
		L.bounce = bounce;
		cap_dispatch(g, i, at_exit, limit, argv, &L);
		if (at_exit) {
			cap_read_fixed(g, i, capmax, &L);
			cap_entry_value(g, &L);
		}
		cap_read_str(g, i, capmax, &L);
		if (argv && (i == 1 || i == 2))
			cap_read_argv(g, i, limit, &L);
		if (argv && (i == 2 || i == 3))
			cap_read_envp(g, i, limit, &L);
		if (at_exit && argv && i == 1) {
			bpf_label_place(g, L.iov);
			gen_iov(g, i, capmax, limit, L.next);
		}
		cap_store(g, i, capmax, &L);
	}
	/* len = r8 - header; r8 bounded for the verifier */
	int ok = bpf_label_new(g);
	bpf_emit_jmp_imm(g, BPF_JLE, BPF_REG_8, bound, ok);
	bpf_emit(g, I_MOV64_IMM(BPF_REG_8, TRACE_HDR_SIZE));
	bpf_label_place(g, ok);
	bpf_emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_8));
	bpf_emit(g, I_ALU64_IMM(BPF_SUB, BPF_REG_1, TRACE_HDR_SIZE));
	bpf_emit(g, I_STX(BPF_W, R_SCR, BPF_REG_1, H_LEN));
}
