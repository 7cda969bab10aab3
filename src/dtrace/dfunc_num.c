/* D's number subroutines: strtoll(str[, base]) and getmajor(dev) /
 * getminor(dev).
 *
 * strtoll follows dtrace.c's dtrace_strtoll: spaces and tabs skipped, a
 * sign, "0x"/"0X" skipped in base 16 when a hex digit follows, then digits
 * of the base (0-9, a-z, A-Z) up to the first that is not one; nothing
 * read is 0, overflow wraps.  A base outside 2..36 is an illegal operation
 * at run time, as in DTrace.  dev_t is the kernel's: 12 bits of major above
 * 20 of minor (MAJOR()/MINOR(), as dtrace-utils' vmlinux`dev_t prototype). */
#include <string.h>

#include "codegen_d.h"
#include "dfunc.h"

#define DEV_MINORBITS 20

bool dcheck_strtoll(Sema *s, Expr *c)
{
	if (!dsema_arg_str(s, c, 0))
		return false;
	if (c->args.n > 1 && !dsema_arg_int(s, c, 1, "int"))
		return false;
	c->type = ty_int(s, 64, true);
	return true;
}

bool dcheck_devpart(Sema *s, Expr *c)
{
	if (!dsema_arg_int(s, c, 0, "dev_t"))
		return false;
	c->type = ty_int(s, 32, false);
	return true;
}

/* r3 = the digit value of the byte in r3, or 99 when it is no digit */
static void gen_digit_value(Gen *g)
{
	int lower = label_new(g), upper = label_new(g), none = label_new(g), end = label_new(g);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_3, 'a', lower);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_3, 'A', upper);
	emit_jmp_imm(g, BPF_JLT, BPF_REG_3, '0', none);
	emit_jmp_imm(g, BPF_JGT, BPF_REG_3, '9', none);
	emit(g, I_ALU64_IMM(BPF_SUB, BPF_REG_3, '0'));
	emit_goto(g, end);
	label_place(g, lower);
	emit_jmp_imm(g, BPF_JGT, BPF_REG_3, 'z', none);
	emit(g, I_ALU64_IMM(BPF_SUB, BPF_REG_3, 'a' - 10));
	emit_goto(g, end);
	label_place(g, upper);
	emit_jmp_imm(g, BPF_JGT, BPF_REG_3, 'Z', none);
	emit(g, I_ALU64_IMM(BPF_SUB, BPF_REG_3, 'A' - 10));
	emit_goto(g, end);
	label_place(g, none);
	emit(g, I_MOV64_IMM(BPF_REG_3, 99));
	label_place(g, end);
}

/* r1 += 2 when base (r2) is 16 and "0x"/"0X" and a hex digit start at r1
 * (r3, r5 used) */
static void skip_hex_prefix(Gen *g, int os, int ns)
{
	int end = label_new(g), x = label_new(g);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_2, 16, end);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_1, ns - 2, end);
	d_ld_byte(g, BPF_REG_3, BPF_REG_1, os);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_3, '0', end);
	emit(g, I_MOV64_REG(BPF_REG_5, BPF_REG_1));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_5, 1));
	d_ld_byte(g, BPF_REG_3, BPF_REG_5, os);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, 'x', x);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_3, 'X', end);
	label_place(g, x);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_5, 1));
	d_ld_byte(g, BPF_REG_3, BPF_REG_5, os);
	gen_digit_value(g);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_3, 16, end);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 2));
	label_place(g, end);
}

/* r0 = the value; registers: r1 position, r2 base, r3 byte, r4 value */
static void gen_strtoll(Gen *g, const Expr *e)
{
	int mark = g->scratch_top, ns, os = d_str_arg(g, e->args.v[0], &ns);
	int base = d_slot(g), neg = d_slot(g);
	if (e->args.n > 1) {
		gen_int(g, e->args.v[1]);
		emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, base);
	} else {
		emit_st(g, BPF_DW, R_SCR, base, 10);
	}
	emit_st(g, BPF_DW, R_SCR, neg, 0);
	emit_ldx(g, BPF_DW, BPF_REG_2, R_SCR, base);
	emit_jmp_imm(g, BPF_JSLT, BPF_REG_2, 2, dfault_label(g, DTRACEFLT_ILLOP, -1));
	emit_jmp_imm(g, BPF_JSGT, BPF_REG_2, 36, dfault_label(g, DTRACEFLT_ILLOP, -1));
	int blanks = label_new(g), sign = label_new(g), digits = label_new(g), done = label_new(g);
	emit(g, I_MOV64_IMM(BPF_REG_1, 0));
	emit(g, I_MOV64_IMM(BPF_REG_4, 0));
	label_place(g, blanks);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_1, ns, done);
	d_ld_byte(g, BPF_REG_3, BPF_REG_1, os);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, ' ', blanks);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, '\t', blanks);
	emit(g, I_ALU64_IMM(BPF_SUB, BPF_REG_1, 1));
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, '+', sign);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_3, '-', digits);
	emit_st(g, BPF_DW, R_SCR, neg, 1);
	label_place(g, sign);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	label_place(g, digits);
	skip_hex_prefix(g, os, ns);
	int loop = label_new(g);
	label_place(g, loop);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_1, ns, done);
	d_ld_byte(g, BPF_REG_3, BPF_REG_1, os);
	gen_digit_value(g);
	emit_jmp_reg(g, BPF_JGE, BPF_REG_3, BPF_REG_2, done);
	emit(g, I_ALU64_REG(BPF_MUL, BPF_REG_4, BPF_REG_2));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_4, BPF_REG_3));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	emit_goto(g, loop);
	label_place(g, done);
	emit(g, I_MOV64_REG(BPF_REG_0, BPF_REG_4));
	emit_ldx(g, BPF_DW, BPF_REG_1, R_SCR, neg);
	emit(g, I_JMP_IMM(BPF_JEQ, BPF_REG_1, 0, 1));
	emit(g, I_ALU64_IMM(BPF_NEG, BPF_REG_0, 0));
	g->scratch_top = mark;
}

/* getmajor(dev), getminor(dev): a dev_t's parts (32 bits) */
static void gen_getmajor(Gen *g, const Expr *e)
{
	gen_int(g, e->args.v[0]);
	emit(g, I_MOV32_REG(BPF_REG_0, BPF_REG_0));
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_0, DEV_MINORBITS));
}

static void gen_getminor(Gen *g, const Expr *e)
{
	gen_int(g, e->args.v[0]);
	emit(g, I_MOV32_REG(BPF_REG_0, BPF_REG_0));
	emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_0, (1 << DEV_MINORBITS) - 1));
}

/* D's strtoll() and device numbers */
static const FuncDef num_funcs[] = {
	{"strtoll", FK_EXPR, 1, 2, dcheck_strtoll, FUNC_D, .gen_int = gen_strtoll},
	{"getmajor", FK_EXPR, 1, 1, dcheck_devpart, FUNC_D, .gen_int = gen_getmajor},
	{"getminor", FK_EXPR, 1, 1, dcheck_devpart, FUNC_D, .gen_int = gen_getminor},
};
BUILTINS(num_funcs)
