/* __psargs(arg_start, arg_end): psinfo_t's pr_psargs as DTrace shows it,
 * the process's arguments joined with spaces, at most PRARGSZ - 1 bytes.
 * d_args.c's translator calls it with the task's mm->arg_start and
 * arg_end; the bytes are read from the current task's user memory (the
 * translator only asks when that is the task's own memory), NULs between
 * arguments become spaces and the last byte read ends the string. */
#include "../compile/codegen.h"
#include "dfunc.h"

bool dcheck_psargs(Sema *s, Expr *c)
{
	if (!dsema_arg_int(s, c, 0, "uintptr_t") || !dsema_arg_int(s, c, 1, "uintptr_t"))
		return false;
	c->type = ty_str(s, D_PRARGSZ);
	return true;
}

/* r1 = the address of scratch[dst + r3] (r3 < out, checked by the caller) */
static void byte_ptr(Gen *g, int dst)
{
	emit(g, I_MOV64_REG(BPF_REG_1, R_SCR));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_3));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, dst));
}

static void gen_psargs(Gen *g, const Expr *e, int dst, const Type *dt)
{
	int mark = g->scratch_top;
	int out = e->type->size < dt->size ? e->type->size : dt->size;
	int start = d_slot(g), len = d_slot(g);
	int done = label_new(g), loop = label_new(g), next = label_new(g), last = label_new(g);
	emit_memzero(g, dst, dt->size);
	gen_int(g, e->args.v[0]);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, start);
	gen_int(g, e->args.v[1]);
	emit_ldx(g, BPF_DW, BPF_REG_2, R_SCR, start);
	emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_0, BPF_REG_2)); /* the bytes, the last NUL included */
	emit_jmp_imm(g, BPF_JSLE, BPF_REG_0, 0, done);
	emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_0));
	emit_jmp_imm(g, BPF_JLE, BPF_REG_2, out, next);
	emit(g, I_MOV64_IMM(BPF_REG_2, out));
	label_place(g, next);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_2, len);
	emit_scratch_ptr(g, BPF_REG_1, dst);
	emit_ldx(g, BPF_DW, BPF_REG_3, R_SCR, start);
	emit_call(g, BPF_FUNC_probe_read_user); /* a failed read leaves zeroes: "" */
	/* bytes 0 .. len-2: a NUL between two arguments is a space */
	emit(g, I_MOV64_IMM(BPF_REG_3, 0));
	label_place(g, loop);
	emit_ldx(g, BPF_DW, BPF_REG_2, R_SCR, len);
	emit(g, I_ALU64_IMM(BPF_SUB, BPF_REG_2, 1));
	emit_jmp_reg(g, BPF_JGE, BPF_REG_3, BPF_REG_2, last);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_3, out - 1, last);
	byte_ptr(g, dst);
	emit_ldx(g, BPF_B, BPF_REG_4, BPF_REG_1, 0);
	int keep = label_new(g);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_4, 0, keep);
	emit_st(g, BPF_B, BPF_REG_1, 0, ' ');
	label_place(g, keep);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, 1));
	emit_goto(g, loop);
	/* the byte after them ends the string, also when the arguments were
	 * longer than out (or do not end in a NUL, after setproctitle) */
	label_place(g, last);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_3, out, done);
	byte_ptr(g, dst);
	emit_st(g, BPF_B, BPF_REG_1, 0, 0);
	label_place(g, done);
	g->scratch_top = mark;
}

/* psinfo_t's pr_psargs (src/dtrace/d_args.c), not a DTrace subroutine */
static const FuncDef psargs_funcs[] = {
	{"__psargs", FK_EXPR, 2, 2, dcheck_psargs, FUNC_D, .gen_into = gen_psargs},
};
BUILTINS(psargs_funcs)
