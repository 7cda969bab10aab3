/* The loop pieces D's string subroutines are built from: bytes and 8-byte
 * slots of the per-CPU scratch buffer, a string's length, a bounded copy,
 * a string argument's bytes. */
#include <stdint.h>

#include "codegen_d.h"
#include "dfunc.h"

int d_slot(Gen *g)
{
	return scratch_alloc(g, 8);
}

/* dst = byte at scratch[off + idx] (idx bounded by the caller) */
void d_ld_byte(Gen *g, int dst, int idx, int off)
{
	if (dst != idx)
		emit(g, I_MOV64_REG(dst, idx));
	emit(g, I_ALU64_REG(BPF_ADD, dst, R_SCR));
	emit_ldx(g, BPF_B, dst, dst, off);
}

/* scratch[off + idx] = src, through tmp */
void d_st_byte(Gen *g, int idx, int off, int src, int tmp)
{
	emit(g, I_MOV64_REG(tmp, R_SCR));
	emit(g, I_ALU64_REG(BPF_ADD, tmp, idx));
	emit_stx(g, BPF_B, tmp, src, off);
}

void d_ld_slot(Gen *g, int reg, int slot)
{
	emit_ldx(g, BPF_DW, reg, R_SCR, slot);
}

void d_st_slot(Gen *g, int slot, int reg)
{
	emit_stx(g, BPF_DW, R_SCR, reg, slot);
}

void d_strlen(Gen *g, int off, int size, int reg)
{
	int loop = label_new(g), end = label_new(g);
	emit(g, I_MOV64_IMM(reg, 0));
	label_place(g, loop);
	emit_jmp_imm(g, BPF_JGE, reg, size, end);
	d_ld_byte(g, BPF_REG_3, reg, off);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, 0, end);
	emit(g, I_ALU64_IMM(BPF_ADD, reg, 1));
	emit_goto(g, loop);
	label_place(g, end);
}

void d_copy_range(Gen *g, int src_off, int src_size, int start_slot, int count_slot,
		  int dst_off, int out)
{
	int loop = label_new(g), end = label_new(g);
	d_ld_slot(g, BPF_REG_1, start_slot);
	d_ld_slot(g, BPF_REG_2, count_slot);
	emit(g, I_MOV64_IMM(BPF_REG_3, 0));
	label_place(g, loop);
	emit_jmp_reg(g, BPF_JSGE, BPF_REG_3, BPF_REG_2, end);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_3, out - 1, end);
	emit(g, I_MOV64_REG(BPF_REG_4, BPF_REG_1));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_4, BPF_REG_3));
	emit_jmp_imm(g, BPF_JGE, BPF_REG_4, src_size, end); /* also start < 0 */
	d_ld_byte(g, BPF_REG_5, BPF_REG_4, src_off);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_5, 0, end);
	d_st_byte(g, BPF_REG_3, dst_off, BPF_REG_5, BPF_REG_4);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, 1));
	emit_goto(g, loop);
	label_place(g, end);
}

/* The bytes of a string argument in scratch, and how many there are: a
 * string as it is, a char array's bytes, a pointer read as a string of
 * strsize bytes (user or kernel memory by the pointer's space). */
int d_str_arg(Gen *g, const Expr *a, int *size)
{
	if (!type_is_ptr(a->type)) {
		*size = a->type->size;
		return gen_mem(g, a);
	}
	int n = g->sc->opt.strlen_max, off = scratch_alloc(g, n);
	emit_memzero(g, off, n);
	gen_int(g, a);
	emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_0));
	emit_scratch_ptr(g, BPF_REG_1, off);
	emit(g, I_MOV64_IMM(BPF_REG_2, n));
	dfault_read_call(g, a->type->user ? BPF_FUNC_probe_read_user_str : BPF_FUNC_probe_read_str);
	*size = n;
	return off;
}

/* an integer argument into a scratch slot */
int d_int_arg_slot(Gen *g, const Expr *a)
{
	int slot = d_slot(g);
	gen_int(g, a);
	d_st_slot(g, slot, BPF_REG_0);
	return slot;
}

/* slot = imm */
void d_set_slot(Gen *g, int slot, int32_t imm)
{
	emit_st(g, BPF_DW, R_SCR, slot, imm);
}
