/* bpftrace 0.26's is_err(ptr): whether a kernel pointer is an ERR_PTR (a
 * negative errno, -4095..-1, as the kernel's IS_ERR() tests it); its type
 * rule and code.  A bool: printed true/false. */
#include "../compile/codegen.h"
#include "../compile/sema_hooks.h"

#define MAX_ERRNO 4095

static bool check_is_err(Sema *s, Expr *c)
{
	if (!sema_arg_int(s, c, 0))
		return false;
	c->type = ty_bool(s);
	return true;
}

/* r0 = (u64)ptr >= (u64)-MAX_ERRNO */
static void gen_is_err(Gen *g, const Expr *e)
{
	int done = label_new(g);
	gen_int(g, e->args.v[0]);
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_0));
	emit(g, I_MOV64_IMM(BPF_REG_2, -MAX_ERRNO)); /* sign-extended: 0xfffff...f001 */
	emit(g, I_MOV64_IMM(BPF_REG_0, 1));
	emit_jmp_reg(g, BPF_JGE, BPF_REG_1, BPF_REG_2, done);
	emit(g, I_MOV64_IMM(BPF_REG_0, 0));
	label_place(g, done);
}

static const FuncDef errptr_funcs[] = {
	{"is_err", FK_EXPR, 1, 1, check_is_err, .gen_int = gen_is_err, .sets = FSET_BT_STDLIB},
};
BUILTINS(errptr_funcs)
