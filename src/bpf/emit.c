#include "emit.h"

#include <string.h>

/* Code after an unconditional goto (exit(), return, break, continue) is
 * unreachable until a label some live jump targets: the verifier rejects
 * unreachable instructions, so they are not emitted at all. */
void bpf_emit(BpfCode *c, struct bpf_insn i)
{
	if (c->dead)
		return;
	vec_push(&c->insns, i);
	vec_push(&c->lines, c->line);
}

static void reloc(BpfCode *c, RelocKind kind, int arg)
{
	if (c->dead)
		return;
	Reloc r = {c->insns.n, kind, arg};
	vec_push(&c->relocs, r);
}

void bpf_emit_ld_imm64(BpfCode *c, int reg, uint64_t v)
{
	bpf_emit(c, I_LD_IMM64_1(reg, 0, v));
	bpf_emit(c, I_LD_IMM64_2(v));
}

void bpf_emit_ld_map(BpfCode *c, int reg, RelocKind kind, int arg)
{
	reloc(c, kind, arg);
	bpf_emit(c, I_LD_IMM64_1(reg, BPF_PSEUDO_MAP_FD, 0));
	bpf_emit(c, (struct bpf_insn){0});
}

void bpf_emit_ld_map_value(BpfCode *c, int reg, RelocKind kind, int off)
{
	reloc(c, kind, off);
	bpf_emit(c, I_LD_IMM64_1(reg, BPF_PSEUDO_MAP_VALUE, 0));
	/* the value offset lives in the second slot's imm */
	bpf_emit(c, (struct bpf_insn){.imm = off});
}

void bpf_emit_call(BpfCode *c, int helper)
{
	bpf_emit(c, I_CALL(helper));
}

int bpf_label_new(BpfCode *c)
{
	vec_push(&c->labels, -1);
	return c->labels.n - 1;
}

void bpf_label_place(BpfCode *c, int label)
{
	if (c->labels.v[label] == -2)
		c->dead = false;
	c->labels.v[label] = c->insns.n;
}

static void emit_fixup(BpfCode *c, struct bpf_insn i, int label)
{
	if (c->dead)
		return;
	if (c->labels.v[label] == -1)
		c->labels.v[label] = -2;
	i.off = (int16_t)label;
	vec_push(&c->fixups, c->insns.n);
	bpf_emit(c, i);
}

void bpf_emit_jmp_imm(BpfCode *c, int op, int reg, int32_t imm, int label)
{
	emit_fixup(c, I_JMP_IMM(op, reg, imm, 0), label);
}

void bpf_emit_jmp_reg(BpfCode *c, int op, int dst, int src, int label)
{
	emit_fixup(c, I_JMP_REG(op, dst, src, 0), label);
}

void bpf_emit_goto(BpfCode *c, int label)
{
	emit_fixup(c, I_JA(0), label);
	c->dead = true;
}

void bpf_emit_ld_func(BpfCode *c, int reg, int label)
{
	emit_fixup(c, I_LD_IMM64_1(reg, BPF_PSEUDO_FUNC, 0), label);
	bpf_emit(c, (struct bpf_insn){0});
}

bool bpf_emit_finish(BpfCode *c)
{
	for (int i = 0; i < c->fixups.n; i++) {
		int at = c->fixups.v[i];
		int target = c->labels.v[c->insns.v[at].off];
		int delta = target - at - 1;
		if (c->insns.v[at].code == (BPF_LD | BPF_DW | BPF_IMM)) { /* a function's address */
			c->insns.v[at].imm = delta;
			c->insns.v[at].off = 0;
			if (target < 0)
				return false;
			continue;
		}
		if (target < 0 || delta > 32767 || delta < -32768)
			return false;
		c->insns.v[at].off = (int16_t)delta;
	}
	c->fixups.n = 0;
	return true;
}

void bpf_code_free(BpfCode *c)
{
	vec_free(&c->insns);
	vec_free(&c->lines);
	vec_free(&c->relocs);
	vec_free(&c->labels);
	vec_free(&c->fixups);
}

static bool off_fits(int off)
{
	return off >= -32768 && off + 8 <= 32767;
}

/* base + off in `via` when off does not fit an instruction */
static int far_base(BpfCode *c, int base, int *off, int via)
{
	if (off_fits(*off))
		return base;
	bpf_emit(c, I_MOV64_REG(via, base));
	bpf_emit(c, I_ALU64_IMM(BPF_ADD, via, *off));
	*off = 0;
	return via;
}

void bpf_emit_ldx(BpfCode *c, int size, int dst, int base, int off)
{
	base = far_base(c, base, &off, BPF_REG_8);
	bpf_emit(c, I_LDX(size, dst, base, off));
}

void bpf_emit_stx(BpfCode *c, int size, int base, int src, int off)
{
	base = far_base(c, base, &off, BPF_REG_9);
	bpf_emit(c, I_STX(size, base, src, off));
}

void bpf_emit_st(BpfCode *c, int size, int base, int off, int32_t imm)
{
	base = far_base(c, base, &off, BPF_REG_9);
	bpf_emit(c, I_ST(size, base, off, imm));
}

void bpf_emit_scratch_ptr(BpfCode *c, int reg, int off)
{
	bpf_emit(c, I_MOV64_REG(reg, R_SCR));
	if (off)
		bpf_emit(c, I_ALU64_IMM(BPF_ADD, reg, off));
}

/* Small moves are inlined; large ones go through bpf_probe_read_kernel,
 * the one helper that copies an arbitrary number of bytes. */
#define INLINE_MAX 128

void bpf_emit_memcpy(BpfCode *c, int dst_off, int src_reg, int src_off, int n)
{
	if (n > INLINE_MAX) {
		bpf_emit(c, I_MOV64_REG(BPF_REG_3, src_reg));
		if (src_off)
			bpf_emit(c, I_ALU64_IMM(BPF_ADD, BPF_REG_3, src_off));
		bpf_emit_scratch_ptr(c, BPF_REG_1, dst_off);
		bpf_emit(c, I_MOV64_IMM(BPF_REG_2, n));
		bpf_emit_call(c, BPF_FUNC_probe_read_kernel);
		return;
	}
	static const struct {
		int size, bpf;
	} w[] = {{8, BPF_DW}, {4, BPF_W}, {2, BPF_H}, {1, BPF_B}};
	int i = 0;
	for (int k = 0; k < 4; k++)
		for (; i + w[k].size <= n; i += w[k].size) {
			bpf_emit_ldx(c, w[k].bpf, BPF_REG_5, src_reg, src_off + i);
			bpf_emit_stx(c, w[k].bpf, R_SCR, BPF_REG_5, dst_off + i);
		}
}

void bpf_emit_memzero(BpfCode *c, int dst_off, int n)
{
	if (n <= 0)
		return;
	if (n > INLINE_MAX) {
		if (n > c->zero_size)
			c->zero_size = n;
		bpf_emit_ld_map_value(c, BPF_REG_3, R_ZERO, 0);
		bpf_emit_scratch_ptr(c, BPF_REG_1, dst_off);
		bpf_emit(c, I_MOV64_IMM(BPF_REG_2, n));
		bpf_emit_call(c, BPF_FUNC_probe_read_kernel);
		return;
	}
	int i = 0;
	for (; i + 8 <= n; i += 8)
		bpf_emit_st(c, BPF_DW, R_SCR, dst_off + i, 0);
	for (; i < n; i++)
		bpf_emit_st(c, BPF_B, R_SCR, dst_off + i, 0);
}

void bpf_emit_store_bytes(BpfCode *c, int dst_off, const char *bytes, int n)
{
	int i = 0;
	for (; i + 4 <= n; i += 4) {
		int32_t v;
		memcpy(&v, bytes + i, 4);
		bpf_emit_st(c, BPF_W, R_SCR, dst_off + i, v);
	}
	for (; i < n; i++)
		bpf_emit_st(c, BPF_B, R_SCR, dst_off + i, (int8_t)bytes[i]);
}

void bpf_emit_log2_search(BpfCode *c, int top)
{
	for (int step = top; step >= 1; step /= 2) {
		int next = bpf_label_new(c);
		bpf_emit(c, I_MOV64_REG(BPF_REG_3, BPF_REG_1));
		bpf_emit(c, I_ALU64_IMM(BPF_RSH, BPF_REG_3, step));
		bpf_emit_jmp_imm(c, BPF_JEQ, BPF_REG_3, 0, next);
		bpf_emit(c, I_MOV64_REG(BPF_REG_1, BPF_REG_3));
		bpf_emit(c, I_ALU64_IMM(BPF_ADD, BPF_REG_2, step));
		bpf_label_place(c, next);
	}
}
