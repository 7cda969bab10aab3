/* D's chill(ns): spin for ns nanoseconds (destructive: needs -w).  A
 * loop of run-time length must be one the verifier checks once, so the
 * spin is an open-coded iterator (the kernel's bpf_iter_num_new/next/
 * destroy kfuncs, Linux 6.4+, found in its BTF) that reads the clock each
 * round until the deadline.  DTrace refuses to chill more than 500 ms per
 * second; sonde bounds each call to 500 ms (and the iterator's 8M rounds). */
#include <bpf/btf.h>

#include "../lang/ctypes.h"
#include "../compile/codegen.h"
#include "dfunc.h"

#define CHILL_MAX_NS 500000000LL
#define CHILL_ROUNDS (1 << 23) /* the kernel's BPF_MAX_LOOPS */

static int kfunc_id(SymCtx *sc, const char *name)
{
	struct btf *b = btf_kernel(sc);
	return b ? btf__find_by_name_kind(b, name, BTF_KIND_FUNC) : -1;
}

bool dcheck_chill(Sema *s, Expr *c)
{
	/* the argument's type first: dtrace checks -w only when it enables */
	if (!dsema_arg_int(s, c, 0, "int") || !dsema_destructive(s, c))
		return false;
	SymCtx *sc = s->sc->opt.sym;
	c->aux = kfunc_id(sc, "bpf_iter_num_new");
	c->aux2 = kfunc_id(sc, "bpf_iter_num_next");
	int destroy = kfunc_id(sc, "bpf_iter_num_destroy");
	c->ival = destroy > 0 ? (uint64_t)destroy : 0;
	if (c->aux <= 0 || c->aux2 <= 0 || !c->ival)
		return sema_error(s, c->loc, "chill( ) needs the kernel's bpf_iter_num kfuncs (Linux "
				  "6.4 or later, with BTF): not found in this kernel");
	return true;
}

/* r1 = the iterator's stack address */
static void iter_ptr(Gen *g, int it)
{
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_10));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, it));
}

static void dchill_gen(Gen *g, const Expr *e)
{
	int deadline = stack_push(g), it = stack_push(g);
	int pos = label_new(g), capped = label_new(g), loop = label_new(g), done = label_new(g);
	gen_int(g, e->args.v[0]);
	emit_jmp_imm(g, BPF_JSGE, BPF_REG_0, 0, pos);
	emit(g, I_MOV64_IMM(BPF_REG_0, 0));
	label_place(g, pos);
	emit_jmp_imm(g, BPF_JLE, BPF_REG_0, CHILL_MAX_NS, capped);
	emit(g, I_MOV64_IMM(BPF_REG_0, CHILL_MAX_NS));
	label_place(g, capped);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, deadline));
	emit_call(g, BPF_FUNC_ktime_get_ns);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, deadline));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1));
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, deadline));
	iter_ptr(g, it);
	emit(g, I_MOV64_IMM(BPF_REG_2, 0));
	emit(g, I_MOV64_IMM(BPF_REG_3, CHILL_ROUNDS));
	emit_kfunc_call(g, e->aux);
	label_place(g, loop);
	iter_ptr(g, it);
	emit_kfunc_call(g, e->aux2);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, done);
	emit_call(g, BPF_FUNC_ktime_get_ns);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, deadline));
	emit_jmp_reg(g, BPF_JLT, BPF_REG_0, BPF_REG_1, loop);
	label_place(g, done);
	iter_ptr(g, it);
	emit_kfunc_call(g, (int)e->ival);
	stack_pop(g);
	stack_pop(g);
}

/* D's chill() */
static const FuncDef chill_funcs[] = {
	{"chill", FK_STMT, 1, 1, dcheck_chill, FUNC_D, .gen_stmt = dchill_gen},
};
BUILTINS(chill_funcs)
