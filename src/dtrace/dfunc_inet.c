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

static bool check_ntoa(Sema *s, Expr *c, bool six)
{
	if (!dsema_arg_int(s, c, 0, six ? "in6_addr_t *" : "ipaddr_t *"))
		return false;
	return inet_type(s, c);
}

bool dcheck_inet_ntoa(Sema *s, Expr *c)
{
	return check_ntoa(s, c, false);
}

bool dcheck_inet_ntoa6(Sema *s, Expr *c)
{
	return check_ntoa(s, c, true);
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

/* the value zeroed at dst, the address (the last argument) in a slot */
static int addr_slot(Gen *g, const Expr *p, int dst, const Type *dt)
{
	int slot = d_slot(g);
	emit_memzero(g, dst, dt->size);
	gen_int(g, p);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, slot);
	return slot;
}

/* inet_ntop(af, addr): the family from the argument, 4 or 16 bytes by it */
static void gen_inet_ntop(Gen *g, const Expr *e, int dst, const Type *dt)
{
	int mark = g->scratch_top;
	const Expr *p = e->args.v[1];
	int slot = addr_slot(g, p, dst, dt), four = label_new(g), done = label_new(g);
	gen_int(g, e->args.v[0]);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, dst);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, AF_INET, four);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_0, AF_INET6, dfault_label(g, DTRACEFLT_ILLOP, -1));
	read_addr(g, p, slot, dst + 8, 16);
	emit_goto(g, done);
	label_place(g, four);
	read_addr(g, p, slot, dst + 8, 4);
	label_place(g, done);
	g->scratch_top = mark;
}

/* inet_ntoa(p), inet_ntoa6(p): the family the function says */
static void gen_ntoa(Gen *g, const Expr *e, int dst, const Type *dt, bool six)
{
	int mark = g->scratch_top;
	const Expr *p = e->args.v[0];
	int slot = addr_slot(g, p, dst, dt);
	emit_st(g, BPF_DW, R_SCR, dst, six ? AF_INET6 : AF_INET);
	read_addr(g, p, slot, dst + 8, six ? 16 : 4);
	g->scratch_top = mark;
}

static void gen_inet_ntoa(Gen *g, const Expr *e, int dst, const Type *dt)
{
	gen_ntoa(g, e, dst, dt, false);
}

static void gen_inet_ntoa6(Gen *g, const Expr *e, int dst, const Type *dt)
{
	gen_ntoa(g, e, dst, dt, true);
}

/* D's address formatting */
static const FuncDef inet_funcs[] = {
	{"inet_ntop", FK_EXPR, 2, 2, dcheck_inet_ntop, FUNC_D, .gen_into = gen_inet_ntop},
	{"inet_ntoa", FK_EXPR, 1, 1, dcheck_inet_ntoa, FUNC_D, .gen_into = gen_inet_ntoa},
	{"inet_ntoa6", FK_EXPR, 1, 1, dcheck_inet_ntoa6, FUNC_D, .gen_into = gen_inet_ntoa6},
};
BUILTINS(inet_funcs)
