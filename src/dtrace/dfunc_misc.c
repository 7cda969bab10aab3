/* D's integer subroutines: htons/htonl/htonll/ntohs/ntohl/ntohll (byte
 * order), rand(), progenyof(pid) (the current process is pid or one of
 * its descendants: a walk up real_parent, as dtrace.c climbs p_pptr). */
#include <string.h>

#include "../compile/codegen.h"
#include "dfunc.h"

/* the byte-order functions: the width their name says */
static int swap_bits(const char *name)
{
	size_t n = strlen(name);
	return name[n - 1] == 's' ? 16 : name[n - 2] == 'l' ? 64 : 32;
}

bool dcheck_byteorder(Sema *s, Expr *c)
{
	int bits = swap_bits(c->name);
	if (!dsema_arg_int(s, c, 0, bits == 16 ? "uint16_t" : bits == 32 ? "uint32_t" : "uint64_t"))
		return false;
	c->type = ty_int(s, bits, false);
	return true;
}

bool dcheck_rand(Sema *s, Expr *c)
{
	c->type = ty_int(s, 32, true);
	return true;
}

/* the offsets of task_struct's tgid and real_parent, from kernel BTF */
bool dcheck_progenyof(Sema *s, Expr *c)
{
	if (!dsema_arg_int(s, c, 0, "pid_t"))
		return false;
	Type *task = sema_ctype_curtask(s)->pointee;
	int n = 0;
	const Field *f = task ? type_fields(task, &n) : NULL;
	c->aux = c->aux2 = -1;
	for (int i = 0; i < n; i++) {
		if (!strcmp(f[i].name, "tgid"))
			c->aux = f[i].offset;
		if (!strcmp(f[i].name, "real_parent"))
			c->aux2 = f[i].offset;
	}
	if (c->aux < 0 || c->aux2 < 0)
		return sema_error(s, c->loc, "progenyof( ) needs struct task_struct's tgid and "
				  "real_parent from the kernel's BTF (/sys/kernel/btf/vmlinux)");
	c->type = ty_int(s, 32, true);
	return true;
}

#define PROGENY_DEPTH 64 /* ancestors looked at; init is reached well before */

/* r0 = 1 when a task from current up through real_parent has tgid pid;
 * the walk stops at tgid 0 (the idle task, its own parent) */
static void gen_progenyof(Gen *g, const Expr *e)
{
	int mark = g->scratch_top, pid = d_slot(g), task = d_slot(g), val = d_slot(g);
	gen_int(g, e->args.v[0]);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, pid);
	emit_call(g, BPF_FUNC_get_current_task);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, task);
	int yes = label_new(g), no = label_new(g), end = label_new(g), loop = label_new(g);
	/* the step count lives on the stack, where the verifier follows it */
	int steps = stack_push(g);
	emit(g, I_ST(BPF_DW, BPF_REG_10, steps, 0));
	label_place(g, loop);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, steps));
	emit_jmp_imm(g, BPF_JGE, BPF_REG_1, PROGENY_DEPTH, no);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_1, steps));
	const int fields[2] = {e->aux, e->aux2}; /* tgid, then the parent */
	for (int k = 0; k < 2; k++) {
		emit_st(g, BPF_DW, R_SCR, val, 0);
		emit_scratch_ptr(g, BPF_REG_1, val);
		emit(g, I_MOV64_IMM(BPF_REG_2, k ? 8 : 4));
		emit_ldx(g, BPF_DW, BPF_REG_3, R_SCR, task);
		emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, fields[k]));
		emit_call(g, BPF_FUNC_probe_read_kernel);
		emit_ldx(g, BPF_DW, BPF_REG_1, R_SCR, val);
		if (k) {
			emit_stx(g, BPF_DW, R_SCR, BPF_REG_1, task);
		} else {
			emit_ldx(g, BPF_DW, BPF_REG_2, R_SCR, pid);
			emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_2, 32));
			emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_2, 32));
			emit_jmp_reg(g, BPF_JEQ, BPF_REG_1, BPF_REG_2, yes);
		}
		emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, no);
	}
	emit_goto(g, loop);
	label_place(g, no);
	emit(g, I_MOV64_IMM(BPF_REG_0, 0));
	emit_goto(g, end);
	label_place(g, yes);
	emit(g, I_MOV64_IMM(BPF_REG_0, 1));
	label_place(g, end);
	stack_pop(g);
	g->scratch_top = mark;
}

/* htons() and the others: the bytes swapped at the name's width */
static void gen_byteorder(Gen *g, const Expr *e)
{
	int bits = swap_bits(e->name);
	gen_int(g, e->args.v[0]);
	emit(g, ((struct bpf_insn){.code = BPF_ALU | BPF_END | BPF_TO_BE,
				   .dst_reg = BPF_REG_0, .imm = bits}));
}

/* rand(): a random int, sign-extended */
static void gen_rand(Gen *g, const Expr *e)
{
	(void)e;
	emit_call(g, BPF_FUNC_get_prandom_u32);
	emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_0, 32));
	emit(g, I_ALU64_IMM(BPF_ARSH, BPF_REG_0, 32));
}

/* D's byte order, rand() and progenyof() */
static const FuncDef misc_funcs[] = {
	{"htons", FK_EXPR, 1, 1, dcheck_byteorder, FUNC_D, .gen_int = gen_byteorder},
	{"htonl", FK_EXPR, 1, 1, dcheck_byteorder, FUNC_D, .gen_int = gen_byteorder},
	{"htonll", FK_EXPR, 1, 1, dcheck_byteorder, FUNC_D, .gen_int = gen_byteorder},
	{"ntohs", FK_EXPR, 1, 1, dcheck_byteorder, FUNC_D, .gen_int = gen_byteorder},
	{"ntohl", FK_EXPR, 1, 1, dcheck_byteorder, FUNC_D, .gen_int = gen_byteorder},
	{"ntohll", FK_EXPR, 1, 1, dcheck_byteorder, FUNC_D, .gen_int = gen_byteorder},
	{"rand", FK_EXPR, 0, 0, dcheck_rand, FUNC_D, .gen_int = gen_rand},
	{"progenyof", FK_EXPR, 1, 1, dcheck_progenyof, FUNC_D, .gen_int = gen_progenyof},
};
BUILTINS(misc_funcs)
