/* D's address formatting: inet_ntop(af, addr), inet_ntoa(ipaddr_t *),
 * inet_ntoa6(in6_addr_t *).  They yield the bpftrace dialect's ntop()
 * value (types.h TY_INET: the family, then the address bytes), formatted
 * by the runtime with inet_ntop(3), so printf("%s"), trace() and
 * aggregation keys print the text.  The bytes are read through the
 * pointer (user memory for a user pointer).  An address family other than
 * AF_INET (2) or AF_INET6 (10) ends the clause, where DTrace reports an
 * illegal operation. */
#include <sys/socket.h>

#include "codegen_d.h"
#include "dfunc.h"

static bool inet_type(Sema *s, Expr *c)
{
	c->type = ty_simple(s, TY_INET, 24);
	return true;
}

bool dcheck_inet_ntop(Sema *s, Expr *c)
{
	if (!dsema_arg_int(s, c, 0, "int") || !dsema_arg_int(s, c, 1, "void *"))
		return false;
	return inet_type(s, c);
}

bool dcheck_inet_ntoa(Sema *s, Expr *c)
{
	bool six = c->func->id == F_D_INET_NTOA6;
	if (!dsema_arg_int(s, c, 0, six ? "in6_addr_t *" : "ipaddr_t *"))
		return false;
	return inet_type(s, c);
}

/* n bytes at the address in slot into scratch dst */
static void read_addr(Gen *g, const Expr *p, int slot, int dst, int n)
{
	emit_scratch_ptr(g, BPF_REG_1, dst);
	emit(g, I_MOV64_IMM(BPF_REG_2, n));
	emit_ldx(g, BPF_DW, BPF_REG_3, R_SCR, slot);
	dfault_read_call(g, type_is_ptr(p->type) && p->type->user ? BPF_FUNC_probe_read_user
								  : BPF_FUNC_probe_read_kernel);
}

static void gen_inet(Gen *g, const Expr *e, int dst, const Type *dt)
{
	int mark = g->scratch_top, slot = d_slot(g);
	const Expr *p = e->args.v[e->args.n - 1];
	emit_memzero(g, dst, dt->size);
	gen_int(g, p);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, slot);
	if (e->func->id == F_D_INET_NTOP) {
		int four = label_new(g), done = label_new(g);
		gen_int(g, e->args.v[0]);
		emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, dst);
		emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, AF_INET, four);
		emit_jmp_imm(g, BPF_JNE, BPF_REG_0, AF_INET6, dfault_label(g, DTRACEFLT_ILLOP, -1));
		read_addr(g, p, slot, dst + 8, 16);
		emit_goto(g, done);
		label_place(g, four);
		read_addr(g, p, slot, dst + 8, 4);
		label_place(g, done);
	} else {
		bool six = e->func->id == F_D_INET_NTOA6;
		emit_st(g, BPF_DW, R_SCR, dst, six ? AF_INET6 : AF_INET);
		read_addr(g, p, slot, dst + 8, six ? 16 : 4);
	}
	g->scratch_top = mark;
}

/* D's address formatting */
static const FuncDef inet_funcs[] = {
	{"inet_ntop", F_D_INET_NTOP, FK_EXPR, 2, 2, dcheck_inet_ntop, FUNC_D, .gen_into = gen_inet},
	{"inet_ntoa", F_D_INET_NTOA, FK_EXPR, 1, 1, dcheck_inet_ntoa, FUNC_D, .gen_into = gen_inet},
	{"inet_ntoa6", F_D_INET_NTOA6, FK_EXPR, 1, 1, dcheck_inet_ntoa, FUNC_D, .gen_into = gen_inet},
};
BUILTINS(inet_funcs)
