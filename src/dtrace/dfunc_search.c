/* D's string search subroutines: index rindex strstr strchr strrchr, with
 * DTrace's semantics (the DTrace Guide; illumos dtrace.c for the edge
 * cases: index/rindex with positions and empty strings). */
#include <stdint.h>

#include "codegen_d.h"
#include "dfunc.h"

bool dcheck_index(Sema *s, Expr *c)
{
	if (!dsema_args_str(s, c, 2) || (c->args.n > 2 && !dsema_arg_int(s, c, 2, "int")))
		return false;
	c->type = ty_int(s, 32, true);
	return true;
}

bool dcheck_strstr(Sema *s, Expr *c)
{
	if (!dsema_args_str(s, c, 2))
		return false;
	c->type = dsema_string(s);
	return true;
}

bool dcheck_strchr(Sema *s, Expr *c)
{
	if (!dsema_args_str(s, c, 1) || !dsema_arg_int(s, c, 1, "char"))
		return false;
	c->type = dsema_string(s);
	return true;
}

/* r0 = 1 when sub (sublen bytes, in slot) occurs in s at position r1 (kept) */
static void match_at(Gen *g, int os, int ns, int osub, int nsub, int sublen_slot)
{
	int loop = label_new(g), yes = label_new(g), no = label_new(g), end = label_new(g);
	d_ld_slot(g, BPF_REG_4, sublen_slot);
	emit(g, I_MOV64_IMM(BPF_REG_2, 0));
	label_place(g, loop);
	emit_jmp_reg(g, BPF_JGE, BPF_REG_2, BPF_REG_4, yes);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_2, nsub, yes);
	emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_1));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_3, BPF_REG_2));
	emit_jmp_imm(g, BPF_JGE, BPF_REG_3, ns, no);
	d_ld_byte(g, BPF_REG_3, BPF_REG_3, os);
	d_ld_byte(g, BPF_REG_5, BPF_REG_2, osub);
	emit_jmp_reg(g, BPF_JNE, BPF_REG_3, BPF_REG_5, no);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_2, 1));
	emit_goto(g, loop);
	label_place(g, yes);
	emit(g, I_MOV64_IMM(BPF_REG_0, 1));
	emit_goto(g, end);
	label_place(g, no);
	emit(g, I_MOV64_IMM(BPF_REG_0, 0));
	label_place(g, end);
}

typedef enum { SEARCH_STRSTR, SEARCH_INDEX, SEARCH_RINDEX } SearchKind;

/* one position of the scan, the callback of bpf_loop (r1: the iteration):
 * the position, `at` plus or minus r1, into res when sub matches there.
 * A callback, so the verifier checks the match once rather than at each
 * of up to strsize positions (a needle of 11 bytes made that too large) */
static void search_step(Gen *g, const int *a)
{
	int k = a[0], os = a[1], ns = a[2], osub = a[3], nsub = a[4], sublen = a[5], at = a[6], res = a[7];
	int found = label_new(g), stop = label_new(g);
	d_ld_slot(g, BPF_REG_2, at);
	if (k == SEARCH_RINDEX) {
		emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_2, BPF_REG_1));
		emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_2));
	} else {
		emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_2));
	}
	emit_jmp_imm(g, BPF_JGT, BPF_REG_1, ns, stop); /* below 0 too */
	match_at(g, os, ns, osub, nsub, sublen);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, found);
	emit(g, I_EXIT()); /* r0 = 0: the next position */
	label_place(g, found);
	d_st_slot(g, res, BPF_REG_1);
	label_place(g, stop);
	emit(g, I_MOV64_IMM(BPF_REG_0, 1));
	emit(g, I_EXIT());
}

/* Where sub occurs in s: the result slot gets the position, or -1; the
 * positions index() and rindex() start from follow dtrace.c (Perl's). */
static void gen_search(Gen *g, const Expr *e, SearchKind k, int os, int ns, int res)
{
	int nsub, osub = d_str_arg(g, e->args.v[1], &nsub);
	int pos = e->args.n > 2 ? d_int_arg_slot(g, e->args.v[2]) : -1;
	int len = d_slot(g), sublen = d_slot(g), at = d_slot(g);
	int done = label_new(g), notempty = label_new(g);
	d_strlen(g, os, ns, BPF_REG_1);
	d_st_slot(g, len, BPF_REG_1);
	d_strlen(g, osub, nsub, BPF_REG_1);
	d_st_slot(g, sublen, BPF_REG_1);
	d_set_slot(g, res, -1);
	d_ld_slot(g, BPF_REG_1, len);
	d_ld_slot(g, BPF_REG_2, sublen);
	emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_1));
	emit(g, I_ALU64_REG(BPF_OR, BPF_REG_3, BPF_REG_2));
	emit_jmp_imm(g, BPF_JNE, BPF_REG_3, 0, notempty);
	d_set_slot(g, res, 0); /* both empty: found at 0, whatever the position */
	emit_goto(g, done);
	label_place(g, notempty);
	/* r1 = len, r2 = sublen: the start position into `at` */
	if (k == SEARCH_RINDEX) {
		d_st_slot(g, at, BPF_REG_1);
		if (pos >= 0) {
			int nonneg = label_new(g), inrange = label_new(g);
			d_ld_slot(g, BPF_REG_3, pos);
			emit_jmp_imm(g, BPF_JSGE, BPF_REG_3, 0, nonneg);
			emit_jmp_imm(g, BPF_JNE, BPF_REG_2, 0, done);
			d_set_slot(g, res, 0);
			emit_goto(g, done);
			label_place(g, nonneg);
			emit_jmp_reg(g, BPF_JSGT, BPF_REG_3, BPF_REG_1, inrange);
			d_st_slot(g, at, BPF_REG_3);
			label_place(g, inrange);
		}
	} else {
		d_set_slot(g, at, 0);
		if (pos >= 0) {
			int nonneg = label_new(g), inrange = label_new(g);
			d_ld_slot(g, BPF_REG_3, pos);
			emit_jmp_imm(g, BPF_JSGE, BPF_REG_3, 0, nonneg);
			emit(g, I_MOV64_IMM(BPF_REG_3, 0));
			label_place(g, nonneg);
			emit_jmp_reg(g, BPF_JSLT, BPF_REG_3, BPF_REG_1, inrange);
			emit_jmp_imm(g, BPF_JNE, BPF_REG_2, 0, done);
			d_st_slot(g, res, BPF_REG_1); /* "" past the end: the length */
			emit_goto(g, done);
			label_place(g, inrange);
			d_st_slot(g, at, BPF_REG_3);
		}
	}
	/* the scan: a bpf_loop over the positions from `at` up to len
	 * (index, strstr) or down to 0 (rindex) */
	d_ld_slot(g, BPF_REG_0, at);
	if (k == SEARCH_RINDEX) {
		emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_0, 1));
	} else {
		d_ld_slot(g, BPF_REG_1, len);
		emit(g, I_ALU64_IMM(BPF_NEG, BPF_REG_0, 0));
		emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1));
	}
	emit_jmp_imm(g, BPF_JSLE, BPF_REG_0, 0, done);
	emit_jmp_imm(g, BPF_JSGT, BPF_REG_0, ns + 1, done);
	int args[] = {k, os, ns, osub, nsub, sublen, at, res};
	gen_loop_call(g, search_step, args, 8);
	label_place(g, done);
}

static void gen_index_of(Gen *g, const Expr *e, SearchKind k)
{
	int mark = g->scratch_top, ns, os = d_str_arg(g, e->args.v[0], &ns), res = d_slot(g);
	gen_search(g, e, k, os, ns, res);
	d_ld_slot(g, BPF_REG_0, res);
	g->scratch_top = mark;
}

static void gen_index(Gen *g, const Expr *e)
{
	gen_index_of(g, e, SEARCH_INDEX);
}

static void gen_rindex(Gen *g, const Expr *e)
{
	gen_index_of(g, e, SEARCH_RINDEX);
}

/* strstr(s, sub): the rest of s from sub's first occurrence, or "" */
static void gen_strstr(Gen *g, const Expr *e, int dst, const Type *dt)
{
	int mark = g->scratch_top;
	int ns, out = e->type->size < dt->size ? e->type->size : dt->size;
	int os = d_str_arg(g, e->args.v[0], &ns), res = d_slot(g), count = d_slot(g);
	gen_search(g, e, SEARCH_STRSTR, os, ns, res);
	emit_memzero(g, dst, dt->size);
	d_set_slot(g, count, out);
	d_copy_range(g, os, ns, res, count, dst, out);
	g->scratch_top = mark;
}

/* strchr/strrchr(s, c): the rest of s from c's first (last) occurrence */
static void gen_strchr_from(Gen *g, const Expr *e, int dst, const Type *dt, bool last)
{
	int mark = g->scratch_top;
	int ns, out = e->type->size < dt->size ? e->type->size : dt->size;
	int os = d_str_arg(g, e->args.v[0], &ns), ch = d_int_arg_slot(g, e->args.v[1]);
	int res = d_slot(g), count = d_slot(g);
	int loop = label_new(g), end = label_new(g), miss = label_new(g);
	d_set_slot(g, res, -1);
	d_ld_slot(g, BPF_REG_2, ch);
	emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_2, 0xff));
	emit(g, I_MOV64_IMM(BPF_REG_1, 0));
	label_place(g, loop);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_1, ns, end);
	d_ld_byte(g, BPF_REG_3, BPF_REG_1, os);
	emit_jmp_reg(g, BPF_JNE, BPF_REG_3, BPF_REG_2, miss);
	d_st_slot(g, res, BPF_REG_1);
	if (!last)
		emit_goto(g, end);
	label_place(g, miss);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, 0, end);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	emit_goto(g, loop);
	label_place(g, end);
	emit_memzero(g, dst, dt->size);
	d_set_slot(g, count, out);
	d_copy_range(g, os, ns, res, count, dst, out);
	g->scratch_top = mark;
}

static void gen_strchr(Gen *g, const Expr *e, int dst, const Type *dt)
{
	gen_strchr_from(g, e, dst, dt, false);
}

static void gen_strrchr(Gen *g, const Expr *e, int dst, const Type *dt)
{
	gen_strchr_from(g, e, dst, dt, true);
}

/* D's string search subroutines */
static const FuncDef search_funcs[] = {
	{"index", FK_EXPR, 2, 3, dcheck_index, FUNC_D, .gen_int = gen_index},
	{"rindex", FK_EXPR, 2, 3, dcheck_index, FUNC_D, .gen_int = gen_rindex},
	{"strchr", FK_EXPR, 2, 2, dcheck_strchr, FUNC_D, .gen_into = gen_strchr},
	{"strrchr", FK_EXPR, 2, 2, dcheck_strchr, FUNC_D, .gen_into = gen_strrchr},
	{"strstr", FK_EXPR, 2, 2, dcheck_strstr, FUNC_D, .gen_into = gen_strstr},
};
BUILTINS(search_funcs)
