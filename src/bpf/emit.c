#include "emit.h"

#include <string.h>

/* Code after an unconditional goto (exit(), return, break, continue) is
 * unreachable until a label some live jump targets: the verifier rejects
 * unreachable instructions, so they are not emitted at all. */
void emit(Gen *g, struct bpf_insn i)
{
	if (g->dead)
		return;
	vec_push(&g->insns, i);
	vec_push(&g->lines, g->line);
}

static void reloc(Gen *g, RelocKind kind, int arg)
{
	if (g->dead)
		return;
	Reloc r = {g->insns.n, kind, arg};
	vec_push(&g->relocs, r);
}

void emit_ld_imm64(Gen *g, int reg, uint64_t v)
{
	emit(g, I_LD_IMM64_1(reg, 0, v));
	emit(g, I_LD_IMM64_2(v));
}

void emit_ld_map(Gen *g, int reg, RelocKind kind, int arg)
{
	reloc(g, kind, arg);
	emit(g, I_LD_IMM64_1(reg, BPF_PSEUDO_MAP_FD, 0));
	emit(g, (struct bpf_insn){0});
}

void emit_ld_map_value(Gen *g, int reg, RelocKind kind, int off)
{
	reloc(g, kind, off);
	emit(g, I_LD_IMM64_1(reg, BPF_PSEUDO_MAP_VALUE, 0));
	/* the value offset lives in the second slot's imm */
	emit(g, (struct bpf_insn){.imm = off});
}

void emit_call(Gen *g, int helper)
{
	emit(g, I_CALL(helper));
}

int label_new(Gen *g)
{
	vec_push(&g->labels, -1);
	return g->labels.n - 1;
}

void label_place(Gen *g, int label)
{
	if (g->labels.v[label] == -2)
		g->dead = false;
	g->labels.v[label] = g->insns.n;
}

static void emit_fixup(Gen *g, struct bpf_insn i, int label)
{
	if (g->dead)
		return;
	if (g->labels.v[label] == -1)
		g->labels.v[label] = -2;
	i.off = (int16_t)label;
	vec_push(&g->fixups, g->insns.n);
	emit(g, i);
}

void emit_jmp_imm(Gen *g, int op, int reg, int32_t imm, int label)
{
	emit_fixup(g, I_JMP_IMM(op, reg, imm, 0), label);
}

void emit_jmp_reg(Gen *g, int op, int dst, int src, int label)
{
	emit_fixup(g, I_JMP_REG(op, dst, src, 0), label);
}

void emit_goto(Gen *g, int label)
{
	emit_fixup(g, I_JA(0), label);
	g->dead = true;
}

bool emit_finish(Gen *g)
{
	for (int i = 0; i < g->fixups.n; i++) {
		int at = g->fixups.v[i];
		int target = g->labels.v[g->insns.v[at].off];
		int delta = target - at - 1;
		if (target < 0 || delta > 32767 || delta < -32768)
			return error_at(g->err, g->probe ? g->probe->loc : (Loc){0},
					"program too large: a jump is out of range (%s)",
					g->spec ? g->spec->name : "probe");
		g->insns.v[at].off = (int16_t)delta;
	}
	g->fixups.n = 0;
	return true;
}

int stack_push(Gen *g)
{
	g->stack_used += 8;
	if (g->stack_used > g->stack_max)
		g->stack_max = g->stack_used;
	if (g->stack_used > 480)
		error_at(g->err, g->probe ? g->probe->loc : (Loc){0},
			 "expression too deeply nested for the 512-byte BPF stack");
	return -8 - g->stack_used; /* -8 holds the scratch map key */
}

void stack_pop(Gen *g)
{
	g->stack_used -= 8;
}

int scratch_alloc(Gen *g, int size)
{
	int off = g->scratch_top;
	g->scratch_top += (size + 7) & ~7;
	if (g->scratch_top > g->scratch_max)
		g->scratch_max = g->scratch_top;
	return off;
}

static bool off_fits(int off)
{
	return off >= -32768 && off + 8 <= 32767;
}

/* base + off in `via` when off does not fit an instruction */
static int far_base(Gen *g, int base, int *off, int via)
{
	if (off_fits(*off))
		return base;
	emit(g, I_MOV64_REG(via, base));
	emit(g, I_ALU64_IMM(BPF_ADD, via, *off));
	*off = 0;
	return via;
}

void emit_ldx(Gen *g, int size, int dst, int base, int off)
{
	base = far_base(g, base, &off, BPF_REG_8);
	emit(g, I_LDX(size, dst, base, off));
}

void emit_stx(Gen *g, int size, int base, int src, int off)
{
	base = far_base(g, base, &off, BPF_REG_9);
	emit(g, I_STX(size, base, src, off));
}

void emit_st(Gen *g, int size, int base, int off, int32_t imm)
{
	base = far_base(g, base, &off, BPF_REG_9);
	emit(g, I_ST(size, base, off, imm));
}

void emit_scratch_ptr(Gen *g, int reg, int off)
{
	emit(g, I_MOV64_REG(reg, R_SCR));
	if (off)
		emit(g, I_ALU64_IMM(BPF_ADD, reg, off));
}

/* Small moves are inlined; large ones go through bpf_probe_read_kernel,
 * the one helper that copies an arbitrary number of bytes. */
#define INLINE_MAX 128

void emit_memcpy(Gen *g, int dst_off, int src_reg, int src_off, int n)
{
	if (n > INLINE_MAX) {
		emit(g, I_MOV64_REG(BPF_REG_3, src_reg));
		if (src_off)
			emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, src_off));
		emit_scratch_ptr(g, BPF_REG_1, dst_off);
		emit(g, I_MOV64_IMM(BPF_REG_2, n));
		emit_call(g, BPF_FUNC_probe_read_kernel);
		return;
	}
	static const struct {
		int size, bpf;
	} w[] = {{8, BPF_DW}, {4, BPF_W}, {2, BPF_H}, {1, BPF_B}};
	int i = 0;
	for (int k = 0; k < 4; k++)
		for (; i + w[k].size <= n; i += w[k].size) {
			emit_ldx(g, w[k].bpf, BPF_REG_5, src_reg, src_off + i);
			emit_stx(g, w[k].bpf, R_SCR, BPF_REG_5, dst_off + i);
		}
}

void emit_memzero(Gen *g, int dst_off, int n)
{
	if (n <= 0)
		return;
	if (n > INLINE_MAX) {
		if (n > g->sc->zero_size)
			g->sc->zero_size = n;
		emit_ld_map_value(g, BPF_REG_3, R_ZERO, 0);
		emit_scratch_ptr(g, BPF_REG_1, dst_off);
		emit(g, I_MOV64_IMM(BPF_REG_2, n));
		emit_call(g, BPF_FUNC_probe_read_kernel);
		return;
	}
	int i = 0;
	for (; i + 8 <= n; i += 8)
		emit_st(g, BPF_DW, R_SCR, dst_off + i, 0);
	for (; i < n; i++)
		emit_st(g, BPF_B, R_SCR, dst_off + i, 0);
}

void emit_store_bytes(Gen *g, int dst_off, const char *bytes, int n)
{
	int i = 0;
	for (; i + 4 <= n; i += 4) {
		int32_t v;
		memcpy(&v, bytes + i, 4);
		emit_st(g, BPF_W, R_SCR, dst_off + i, v);
	}
	for (; i < n; i++)
		emit_st(g, BPF_B, R_SCR, dst_off + i, (int8_t)bytes[i]);
}
