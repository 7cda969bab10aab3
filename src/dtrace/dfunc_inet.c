/* D's address formatting: inet_ntop(af, addr), inet_ntoa(ipaddr_t *),
 * inet_ntoa6(in6_addr_t *).  They yield the bpftrace dialect's ntop()
 * value (types.h TY_INET: the family, then the address bytes), formatted
 * by the runtime with inet_ntop(3), so printf("%s"), trace() and
 * aggregation keys print the text.  The bytes are read through the
 * pointer (user memory for a user pointer).  An address family other than
 * AF_INET (2) or AF_INET6 (10) ends the clause, where DTrace reports an
 * illegal operation. */
#include <string.h>
#include <sys/socket.h>

#include "codegen_d.h"
#include "dfunc.h"

/* the text is a D string: at most strsize characters */
static bool inet_type(Sema *s, Expr *c)
{
	c->type = ty_simple(s, TY_INET, 24);
	c->type->line_max = s->sc->opt.strlen_max - 1;
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

/* a pointer inet_ntoa6() can read: to a struct in6_addr, to void, or an
 * integer address (0 too: a fault when it runs, as in dtrace) */
static bool in6_ptr(const Type *t)
{
	if (t->kind != TY_INT || !t->pointee)
		return t->kind == TY_INT || t->kind == TY_NONE;
	const Type *p = t->pointee;
	return p->kind == TY_NONE || (p->kind == TY_RECORD && p->cname && !strcmp(p->cname, "struct in6_addr"));
}

/* inet_ntoa6(addr [, strict]): strict, an integer constant, not 0: an
 * IPv4-mapped or -compatible address in IPv6's words (::ffff:1.2.3.4),
 * else as dtrace prints it by default, the IPv4 address alone */
bool dcheck_inet_ntoa6(Sema *s, Expr *c)
{
	if (!check_ntoa(s, c, true))
		return false;
	if (!in6_ptr(c->args.v[0]->type))
		return dsema_proto_error(s, c, 0, "in6_addr_t *");
	c->aux = 0;
	if (c->args.n < 2)
		return true;
	Expr *strict = c->args.v[1];
	if (!dsema_arg_int(s, c, 1, "int"))
		return false;
	if (strict->kind != E_INT)
		return sema_error(s, strict->loc, "inet_ntoa6( ) argument #2 must be an integer constant");
	c->aux = strict->ival != 0;
	return true;
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

/* at dst, AF_INET6 then 16 bytes: an IPv4-mapped (::ffff:a.b.c.d) or
 * -compatible (::a.b.c.d, not :: or ::1) address becomes AF_INET and the
 * last 4 bytes (illumos' and dtrace-utils' inet_ntoa6 without strict) */
static void ntoa6_as_v4(Gen *g, int dst)
{
	int keep = label_new(g), v4 = label_new(g);
	emit_ldx(g, BPF_DW, BPF_REG_1, R_SCR, dst + 8); /* bytes 0-7 */
	emit_jmp_imm(g, BPF_JNE, BPF_REG_1, 0, keep);
	emit_ldx(g, BPF_W, BPF_REG_1, R_SCR, dst + 16); /* bytes 8-11 */
	emit_ldx(g, BPF_W, BPF_REG_2, R_SCR, dst + 20); /* the IPv4 address */
	emit(g, I_MOV64_IMM(BPF_REG_3, 0));
	emit(g, I_ALU64_IMM(BPF_SUB, BPF_REG_3, 0x10000)); /* ff ff in bytes 10-11 */
	emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_3, 32));
	emit(g, I_ALU64_IMM(BPF_RSH, BPF_REG_3, 32));
	emit_jmp_reg(g, BPF_JEQ, BPF_REG_1, BPF_REG_3, v4);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_1, 0, keep);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_2, 0, keep);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_2, 0x01000000, keep); /* ::1, little-endian */
	label_place(g, v4);
	emit_st(g, BPF_DW, R_SCR, dst, AF_INET);
	emit_st(g, BPF_DW, R_SCR, dst + 16, 0);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_2, dst + 8);
	label_place(g, keep);
}

static void gen_inet_ntoa6(Gen *g, const Expr *e, int dst, const Type *dt)
{
	gen_ntoa(g, e, dst, dt, true);
	if (!e->aux)
		ntoa6_as_v4(g, dst);
}

/* D's address formatting */
static const FuncDef inet_funcs[] = {
	{"inet_ntop", FK_EXPR, 2, 2, dcheck_inet_ntop, FUNC_D, .gen_into = gen_inet_ntop},
	{"inet_ntoa", FK_EXPR, 1, 1, dcheck_inet_ntoa, FUNC_D, .gen_into = gen_inet_ntoa},
	{"inet_ntoa6", FK_EXPR, 1, 2, dcheck_inet_ntoa6, FUNC_D, .gen_into = gen_inet_ntoa6},
};
BUILTINS(inet_funcs)
