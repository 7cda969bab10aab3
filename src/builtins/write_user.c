/* bpftrace 0.26's write_user(dst, src, len): len bytes of a value of the
 * program (a string, buffer, array, record, tuple or integer) written to
 * the user address dst by bpf_probe_write_user, true when the kernel
 * wrote them.  Unsafe: it changes the traced process's memory, so only
 * with --unsafe.  A literal len larger than the value is an error; a
 * computed one larger than the value writes nothing (false).  Its type
 * rule and code. */
#include "../compile/codegen.h"
#include "../compile/sema_hooks.h"

static bool check_src(Sema *s, Expr *c)
{
	Expr *src = c->args.v[1];
	if (!sema_expr(s, src))
		return false;
	const Type *t = src->type;
	if (t->kind == TY_INT && t->pointee)
		return sema_error(s, src->loc, "write_user() copies a value of the program (a "
				  "string, buffer, array, record or integer), not the memory a pointer "
				  "points to (%s): read it into a variable first", tn(t));
	bool ok = t->kind == TY_INT || t->kind == TY_STR || t->kind == TY_BUF ||
		  t->kind == TY_ARRAY || t->kind == TY_RECORD || t->kind == TY_TUPLE;
	return ok || sema_error(s, src->loc, "write_user() cannot write a value of type %s",
				tn(t));
}

static bool check_write_user(Sema *s, Expr *c)
{
	if (!s->sc->opt.unsafe)
		return sema_error(s, c->loc, "write_user() is an unsafe function being used in safe "
				  "mode\nhint: --unsafe allows it");
	if (!sema_arg_int(s, c, 0) || !check_src(s, c) || !sema_arg_int(s, c, 2))
		return false;
	int64_t len = 0;
	const Expr *n = c->args.v[2];
	int have = type_csize(c->args.v[1]->type); /* an integer: its width */
	if (sema_const_int(s, n, &len) && (len < 0 || len > have))
		return sema_error(s, n->loc, "write_user() length %lld is outside the %d bytes of "
				  "its source", (long long)len, have);
	c->type = sema_truth_type(s);
	return true;
}

/* r0 = 1 when bpf_probe_write_user returned 0 */
static void gen_write_user(Gen *g, const Expr *e)
{
	const Expr *src = e->args.v[1];
	int mark = g->scratch_top, dst = stack_push(g), fail = label_new(g), done = label_new(g);
	int have = type_csize(src->type);
	gen_int(g, e->args.v[0]);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, dst));
	int from = gen_mem(g, src);
	gen_int(g, e->args.v[2]);
	emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_0));
	emit_jmp_imm(g, BPF_JGT, BPF_REG_3, have, fail);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, dst));
	emit_scratch_ptr(g, BPF_REG_2, from);
	emit_call(g, BPF_FUNC_probe_write_user);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, fail);
	emit(g, I_MOV64_IMM(BPF_REG_0, 1));
	emit_goto(g, done);
	label_place(g, fail);
	emit(g, I_MOV64_IMM(BPF_REG_0, 0));
	label_place(g, done);
	stack_pop(g);
	g->scratch_top = mark;
}

static const FuncDef write_user_funcs[] = {
	{"write_user", FK_EXPR, 3, 3, check_write_user, .gen_int = gen_write_user,
	 .sets = FSET_BT_STDLIB},
};
BUILTINS(write_user_funcs)
