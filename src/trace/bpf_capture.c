/* Captures of the memory a call's arguments point to (buffers, strings,
 * argv/envp, iovecs and msghdrs), appended to the record being built. */
#include "bpfgen.h"

/* Make the record position r8 unknown to the verifier (a round trip through
 * the record's len field): paths that reach here with different positions
 * then look alike, so their states prune each other instead of being
 * verified once per combination of earlier captures. */
static void forget_pos(Gen *g)
{
	emit(g, I_STX(BPF_W, R_SCR, BPF_REG_8, H_LEN));
	emit(g, I_LDX(BPF_W, BPF_REG_8, R_SCR, H_LEN));
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

/* argument i's capture length: r8 (already advanced) minus the start
 * saved at stack slot start_slot; then on to next */
static void cap_len_since(Gen *g, int i, int start_slot, int next)
{
	emit(g, I_MOV64_REG(BPF_REG_0, BPF_REG_8));
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, start_slot));
	emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_0, BPF_REG_1));
	emit(g, I_STX(BPF_H, R_SCR, BPF_REG_0, H_CAP + 2 * i));
	emit_goto(g, next);
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
	cap_len_since(g, i, S_START, next);
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
	cap_len_since(g, i, S_TMP, L->next);
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
	cap_len_since(g, i, S_TMP, L->next);
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
void gen_captures(Gen *g, bool at_exit, int capmax, int limit, int bound, bool argv)
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
