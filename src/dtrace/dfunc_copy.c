/* D's copy family: copyin, copyinstr, copyinto, stringof, alloca, bcopy,
 * with the DTrace Guide's semantics.
 *
 * copyinstr() yields a string (strsize bytes, like every D string here).
 * copyin() and alloca() return pointers into the clause's scratch memory:
 * a region of the per-CPU scratch map reserved for the whole program
 * (codegen.c calls dcopy_clause_start() when a clause of the script uses
 * the family), 8 bytes of allocation offset, then 2 x scratchsize bytes.
 * Allocation bumps the offset by the size rounded up to 8 (DTrace's
 * alignment) and fails when the size does not fit in scratchsize; the
 * second half only exists so that the verifier can prove an access of a
 * run-time size at a run-time offset in bounds (both <= scratchsize).
 * The offset starts at 0 in every firing, so memory lives for one clause,
 * as in DTrace; alloca() zeroes what it returns (DTrace leaves it as is).
 * Faults as DTrace's (codegen_fault_d.c): an allocation that does not fit
 * is "out of scratch space", a copyinto()/bcopy() destination outside the
 * memory allocated so far (or a bcopy() source inside scratch memory) an
 * "invalid address" there, a read that fails one at the source.
 *
 * The pointers are kernel addresses of the map value, returned as plain
 * integers (stored and reloaded once, so that the verifier sees a number
 * and not a map pointer): `*(int *)copyin(arg1, 4)` and stringof() read
 * them with bpf_probe_read_kernel like any kernel address. */
#include <string.h>

#include "codegen_d.h"
#include "dfunc.h"

#define D_SCRATCHSIZE_DEFAULT 256   /* DTrace's (Oracle's dtrace-utils) */
#define D_SCRATCHSIZE_MAX (1 << 20) /* sonde's bound: 2 x this per CPU */

int dcopy_scratchsize(const Options *o)
{
	int64_t n = d_size_opt(o, "scratchsize", D_SCRATCHSIZE_DEFAULT);
	n = (n + 7) & ~7LL;
	return n > D_SCRATCHSIZE_MAX ? D_SCRATCHSIZE_MAX : (int)n;
}

/* --- type rules ---------------------------------------------------------- */

static Type *void_ptr(Sema *s)
{
	Type *t = ty_int(s, 64, false), *v = ty_simple(s, TY_NONE, 0);
	v->cname = "void";
	t->pointee = v;
	return t;
}

/* an address or a pointer: D's `void *` parameters */
static bool arg_ptr(Sema *s, Expr *c, int i)
{
	return dsema_arg_int(s, c, i, "void *");
}

bool dcheck_copyin(Sema *s, Expr *c)
{
	if (!dsema_arg_int(s, c, 0, "uintptr_t") || !dsema_arg_int(s, c, 1, "size_t"))
		return false;
	s->sc->uses_dscratch = true;
	c->type = void_ptr(s);
	return true;
}

bool dcheck_copyinstr(Sema *s, Expr *c)
{
	if (!dsema_arg_int(s, c, 0, "uintptr_t"))
		return false;
	if (c->args.n > 1 && !dsema_arg_int(s, c, 1, "size_t"))
		return false;
	c->type = ty_str(s, s->sc->opt.strlen_max);
	return true;
}

bool dcheck_copyinto(Sema *s, Expr *c)
{
	if (!dsema_arg_int(s, c, 0, "uintptr_t") || !dsema_arg_int(s, c, 1, "size_t") ||
	    !arg_ptr(s, c, 2))
		return false;
	s->sc->uses_dscratch = true;
	return true;
}

bool dcheck_alloca(Sema *s, Expr *c)
{
	if (!dsema_arg_int(s, c, 0, "size_t"))
		return false;
	s->sc->uses_dscratch = true;
	c->type = void_ptr(s);
	return true;
}

bool dcheck_bcopy(Sema *s, Expr *c)
{
	if (!arg_ptr(s, c, 0) || !arg_ptr(s, c, 1) || !dsema_arg_int(s, c, 2, "size_t"))
		return false;
	s->sc->uses_dscratch = true;
	return true;
}

/* stringof(x): a string as it is, a char array's bytes, an integer or a
 * pointer read as a string at that address */
bool dcheck_stringof(Sema *s, Expr *c)
{
	Expr *a = c->args.v[0];
	if (!sema_expr(s, a))
		return false;
	const Type *t = a->type;
	if (!(t->kind == TY_NONE && !s->strict) && t->kind != TY_STR && t->kind != TY_INT &&
	    !(t->kind == TY_ARRAY && type_csize(t->pointee) == 1)) {
		char buf[128];
		return sema_error(s, a->loc, "cannot apply stringof to a value of type %s",
				  type_name(t, buf, sizeof(buf)));
	}
	c->type = ty_str(s, s->sc->opt.strlen_max);
	return true;
}

/* --- the clause's scratch memory ------------------------------------------ */

void dcopy_clause_start(Gen *g)
{
	g->dscratch_size = dcopy_scratchsize(&g->sc->opt);
	g->dscratch_off = scratch_alloc(g, 8 + 2 * g->dscratch_size);
	emit_st(g, BPF_DW, R_SCR, g->dscratch_off, 0);
}

static int region(const Gen *g)
{
	return g->dscratch_off + 8;
}

/* r1 = a pointer the verifier knows, to the region + the offset in r1
 * (bounded by the caller to scratchsize); r2, r3 kept */
static void region_ptr(Gen *g, int tmp)
{
	emit_scratch_ptr(g, tmp, region(g));
	emit(g, I_ALU64_REG(BPF_ADD, tmp, BPF_REG_1));
	emit(g, I_MOV64_REG(BPF_REG_1, tmp));
}

/* A register's value through a scratch slot: a map pointer comes back as
 * a number (root programs may keep addresses in maps). */
static void as_number(Gen *g, int reg, int slot)
{
	emit_stx(g, BPF_DW, R_SCR, reg, slot);
	emit_ldx(g, BPF_DW, reg, R_SCR, slot);
}

/* Allocate the size in size_slot: on return r1 points at the memory (a
 * map pointer the helpers accept), r2 is the size (<= scratchsize) and
 * addr_slot holds the address as a number.  No room: the clause ends. */
static void scratch_take(Gen *g, int size_slot, int addr_slot)
{
	int S = g->dscratch_size;
	emit_ldx(g, BPF_DW, BPF_REG_1, R_SCR, g->dscratch_off);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 7)); /* each allocation aligned */
	emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_1, -8));
	emit_ldx(g, BPF_DW, BPF_REG_2, R_SCR, size_slot);
	int full = dfault_label(g, DTRACEFLT_NOSCRATCH, -1);
	emit_jmp_imm(g, BPF_JGT, BPF_REG_1, S, full);
	emit_jmp_imm(g, BPF_JGT, BPF_REG_2, S, full);
	emit(g, I_MOV64_IMM(BPF_REG_3, S));
	emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_3, BPF_REG_1));
	emit_jmp_reg(g, BPF_JGT, BPF_REG_2, BPF_REG_3, full);
	/* the top is the allocation's exact end: a bcopy() or store past it
	 * faults even inside the alignment's padding */
	emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_2));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_3, BPF_REG_1));
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_3, g->dscratch_off);
	region_ptr(g, BPF_REG_3);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_1, addr_slot);
}

/* The destination address in dst_slot and size in size_slot must lie in
 * the memory allocated so far: r1 = a map pointer to it, r2 = the size.
 * Else the clause ends with dtrace-utils' fault (dt_cg_alloca_access_check):
 * an address outside that memory is an invalid address, one inside it
 * with too many bytes after it an invalid size (the size). */
static void scratch_dest(Gen *g, int dst_slot, int size_slot)
{
	int S = g->dscratch_size;
	emit_scratch_ptr(g, BPF_REG_1, region(g));
	as_number(g, BPF_REG_1, dst_slot + 8); /* caller's spare slot */
	emit_ldx(g, BPF_DW, BPF_REG_2, R_SCR, dst_slot);
	emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_2, BPF_REG_1)); /* offset */
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_2));
	emit_ldx(g, BPF_DW, BPF_REG_4, R_SCR, g->dscratch_off);
	int bad_addr = dfault_label(g, DTRACEFLT_BADADDR, dst_slot);
	emit_jmp_reg(g, BPF_JGE, BPF_REG_1, BPF_REG_4, bad_addr);
	emit_jmp_imm(g, BPF_JGT, BPF_REG_1, S, bad_addr); /* (for the verifier) */
	emit_ldx(g, BPF_DW, BPF_REG_2, R_SCR, size_slot);
	int bad_size = dfault_label(g, DTRACEFLT_BADSIZE, size_slot);
	emit_jmp_imm(g, BPF_JGT, BPF_REG_2, S, bad_size);
	emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_1));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_3, BPF_REG_2));
	emit_jmp_reg(g, BPF_JGT, BPF_REG_3, BPF_REG_4, bad_size);
	region_ptr(g, BPF_REG_3);
}

void dcopy_store_ptr(Gen *g, int addr_slot, int size)
{
	int n = scratch_alloc(g, 8);
	emit_st(g, BPF_DW, R_SCR, n, size);
	scratch_dest(g, addr_slot, n);
	emit(g, I_MOV64_REG(BPF_REG_0, BPF_REG_1));
}

/* an integer argument into a fresh slot */
static int int_slot(Gen *g, const Expr *a)
{
	int slot = d_slot(g);
	gen_int(g, a);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, slot);
	return slot;
}

/* --- the subroutines ------------------------------------------------------ */

/* copyin(addr, size) / alloca(size): r0 = the scratch address */
static void gen_take(Gen *g, const Expr *e, bool copy)
{
	int mark = g->scratch_top;
	int src = copy ? int_slot(g, e->args.v[0]) : 0;
	int size = int_slot(g, e->args.v[copy ? 1 : 0]), addr = d_slot(g);
	scratch_take(g, size, addr);
	if (copy) {
		emit_ldx(g, BPF_DW, BPF_REG_3, R_SCR, src);
	} else { /* alloca: zeroed, so nothing of an earlier firing shows */
		if (g->sc->zero_size < g->dscratch_size)
			g->sc->zero_size = g->dscratch_size;
		emit_ld_map_value(g, BPF_REG_3, R_ZERO, 0);
	}
	if (copy)
		dfault_read_call(g, BPF_FUNC_probe_read_user);
	else
		emit_call(g, BPF_FUNC_probe_read_kernel);
	emit_ldx(g, BPF_DW, BPF_REG_0, R_SCR, addr);
	g->scratch_top = mark;
}

/* copyinto(addr, size, dest) / bcopy(src, dest, size) */
static void gen_copy_to(Gen *g, const Expr *e, bool user)
{
	int mark = g->scratch_top;
	const Expr *src = e->args.v[0], *dst = e->args.v[user ? 2 : 1],
		   *size = e->args.v[user ? 1 : 2];
	int s_slot = int_slot(g, src), n_slot = int_slot(g, size);
	int d = scratch_alloc(g, 16); /* the address, then a spare slot */
	gen_int(g, dst);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, d);
	if (!user) { /* bcopy: the source must lie outside scratch memory */
		int outside = label_new(g);
		emit_scratch_ptr(g, BPF_REG_1, g->dscratch_off);
		as_number(g, BPF_REG_1, d + 8);
		emit_ldx(g, BPF_DW, BPF_REG_2, R_SCR, s_slot);
		emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_2, BPF_REG_1));
		emit_jmp_imm(g, BPF_JGE, BPF_REG_2, 8 + 2 * g->dscratch_size, outside);
		emit_goto(g, dfault_label(g, DTRACEFLT_BADADDR, s_slot));
		label_place(g, outside);
	}
	scratch_dest(g, d, n_slot);
	emit_ldx(g, BPF_DW, BPF_REG_3, R_SCR, s_slot);
	dfault_read_call(g, user ? BPF_FUNC_probe_read_user : BPF_FUNC_probe_read_kernel);
	g->scratch_top = mark;
}

/* copyinstr(addr[, maxlen]): at most maxlen characters (and strsize) */
static void gen_copyinstr(Gen *g, const Expr *e, int dst, const Type *dt)
{
	int mark = g->scratch_top;
	int out = e->type->size < dt->size ? e->type->size : dt->size;
	int addr = int_slot(g, e->args.v[0]);
	emit_memzero(g, dst, dt->size);
	if (e->args.n > 1) {
		int keep = label_new(g);
		gen_int(g, e->args.v[1]);
		emit(g, I_MOV64_IMM(BPF_REG_2, out));
		emit_jmp_imm(g, BPF_JGE, BPF_REG_0, out, keep);
		emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_0));
		emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_2, 1));
		label_place(g, keep);
	} else {
		emit(g, I_MOV64_IMM(BPF_REG_2, out));
	}
	emit_scratch_ptr(g, BPF_REG_1, dst);
	emit_ldx(g, BPF_DW, BPF_REG_3, R_SCR, addr);
	dfault_read_call(g, BPF_FUNC_probe_read_user_str);
	g->scratch_top = mark;
}

/* stringof(x) */
static void gen_stringof(Gen *g, const Expr *e, int dst, const Type *dt)
{
	const Expr *a = e->args.v[0];
	int out = e->type->size < dt->size ? e->type->size : dt->size;
	if (a->type->kind != TY_INT) { /* a string or a char array */
		int mark = g->scratch_top, src = gen_mem(g, a);
		int n = a->type->size < out ? a->type->size : out;
		emit_memzero(g, dst, dt->size);
		emit_memcpy(g, dst, R_SCR, src, n);
		g->scratch_top = mark;
		return;
	}
	emit_memzero(g, dst, dt->size);
	gen_int(g, a);
	emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_0));
	emit_scratch_ptr(g, BPF_REG_1, dst);
	emit(g, I_MOV64_IMM(BPF_REG_2, out));
	dfault_read_call(g, type_is_ptr(a->type) && a->type->user ? BPF_FUNC_probe_read_user_str
								   : BPF_FUNC_probe_read_kernel_str);
}

static void gen_copyin(Gen *g, const Expr *e)
{
	gen_take(g, e, true);
}

static void gen_alloca(Gen *g, const Expr *e)
{
	gen_take(g, e, false);
}

static void gen_copyinto(Gen *g, const Expr *e)
{
	gen_copy_to(g, e, true);
}

static void gen_bcopy(Gen *g, const Expr *e)
{
	gen_copy_to(g, e, false);
}

/* D's copies and scratch memory */
static const FuncDef copy_funcs[] = {
	{"copyin", FK_EXPR, 2, 2, dcheck_copyin, FUNC_D, .gen_int = gen_copyin},
	{"copyinstr", FK_EXPR, 1, 2, dcheck_copyinstr, FUNC_D, .gen_into = gen_copyinstr},
	{"copyinto", FK_STMT, 3, 3, dcheck_copyinto, FUNC_D, .gen_stmt = gen_copyinto},
	{"stringof", FK_EXPR, 1, 1, dcheck_stringof, FUNC_D, .gen_into = gen_stringof},
	{"alloca", FK_EXPR, 1, 1, dcheck_alloca, FUNC_D, .gen_int = gen_alloca},
	{"bcopy", FK_STMT, 3, 3, dcheck_bcopy, FUNC_D, .gen_stmt = gen_bcopy},
};
BUILTINS(copy_funcs)
