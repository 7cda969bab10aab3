/* Expressions: integers into r0, everything else into scratch memory. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "codegen.h"
#include "codegen_ctype.h"
#include "../sym/features.h"

void gen_cast_reg(Gen *g, int reg, const Type *t)
{
	if (t->kind != TY_INT || t->bits >= 64 || t->bits <= 0)
		return;
	int sh = 64 - t->bits;
	emit(g, I_ALU64_IMM(BPF_LSH, reg, sh));
	emit(g, I_ALU64_IMM(t->is_signed ? BPF_ARSH : BPF_RSH, reg, sh));
}

void gen_cast_r0(Gen *g, const Type *t)
{
	gen_cast_reg(g, BPF_REG_0, t);
}

static int alu_op(Op op)
{
	switch (op) {
	case OP_ADD: return BPF_ADD;
	case OP_SUB: return BPF_SUB;
	case OP_MUL: return BPF_MUL;
	case OP_DIV: return BPF_DIV;
	case OP_MOD: return BPF_MOD;
	case OP_BAND: return BPF_AND;
	case OP_BOR: return BPF_OR;
	case OP_BXOR: return BPF_XOR;
	case OP_SHL: return BPF_LSH;
	case OP_SHR: return BPF_RSH;
	default: return -1;
	}
}

static int jmp_op(Op op, bool sign)
{
	switch (op) {
	case OP_EQ: return BPF_JEQ;
	case OP_NE: return BPF_JNE;
	case OP_LT: return sign ? BPF_JSLT : BPF_JLT;
	case OP_LE: return sign ? BPF_JSLE : BPF_JLE;
	case OP_GT: return sign ? BPF_JSGT : BPF_JGT;
	case OP_GE: return sign ? BPF_JSGE : BPF_JGE;
	default: return -1;
	}
}

/* r0 = (r1 OP r0) ? 1 : 0 */
static void gen_compare(Gen *g, Op op, bool sign)
{
	int t = label_new(g);
	emit(g, I_MOV64_IMM(BPF_REG_2, 1));
	emit_jmp_reg(g, jmp_op(op, sign), BPF_REG_1, BPF_REG_0, t);
	emit(g, I_MOV64_IMM(BPF_REG_2, 0));
	label_place(g, t);
	emit(g, I_MOV64_REG(BPF_REG_0, BPF_REG_2));
}

static void gen_logical(Gen *g, const Expr *e)
{
	int short_label = label_new(g), end = label_new(g);
	bool is_and = e->op == OP_LAND;
	gen_int(g, e->a);
	emit_jmp_imm(g, is_and ? BPF_JEQ : BPF_JNE, BPF_REG_0, 0, short_label);
	gen_int(g, e->b);
	emit_jmp_imm(g, is_and ? BPF_JEQ : BPF_JNE, BPF_REG_0, 0, short_label);
	emit(g, I_MOV64_IMM(BPF_REG_0, is_and ? 1 : 0));
	emit_goto(g, end);
	label_place(g, short_label);
	emit(g, I_MOV64_IMM(BPF_REG_0, is_and ? 0 : 1));
	label_place(g, end);
}

/* String equality against a literal: bpf_strncmp with the literal kept in
 * the read-only strings map, as the helper demands. */
static void gen_strcmp_literal(Gen *g, const Expr *var, const Expr *lit)
{
	int size = var->type->size;
	int len = (int)lit->slen < lit->type->size ? (int)lit->slen : lit->type->size - 1; /* its value */
	if (len > size) {
		emit(g, I_MOV64_IMM(BPF_REG_0, 1)); /* cannot be equal */
		return;
	}
	int n = len + 1 < size ? len + 1 : size;
	int roff = script_rodata_add(g->sc, lit->sval, (size_t)len);
	int mark = g->scratch_top;
	int off = gen_mem(g, var);
	emit_scratch_ptr(g, BPF_REG_1, off);
	emit(g, I_MOV64_IMM(BPF_REG_2, n));
	emit_ld_map_value(g, BPF_REG_3, R_RODATA, roff);
	emit_call(g, BPF_FUNC_strncmp);
	g->scratch_top = mark;
}

static void gen_cmp_loop(Gen *g, const Expr *a, const Expr *b, int limit, bool text, bool order);

/* String comparison of at most `limit` bytes (INT_MAX: whole strings): a
 * bounded byte loop; r0 = 0 when equal. */
void gen_strcmp(Gen *g, const Expr *a, const Expr *b, int limit)
{
	gen_cmp_loop(g, a, b, limit, true, false);
}

/* D's <, <=, >, >= of strings: strcmp's order (the first differing bytes,
 * unsigned), then r0 = (difference OP 0) */
static void gen_str_order(Gen *g, const Expr *e)
{
	gen_cmp_loop(g, e->a, e->b, INT_MAX, true, true);
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_0));
	emit(g, I_MOV64_IMM(BPF_REG_0, 0));
	gen_compare(g, e->op, true);
}

/* The byte loop: text stops at a NUL; otherwise (arrays, buffers) every
 * byte of the smaller value counts (a buffer's length is its first bytes,
 * and its tail is zeroed).  With order, r0 is the difference of the first
 * differing bytes (a's minus b's), as strcmp's sign. */
static void gen_cmp_loop(Gen *g, const Expr *a, const Expr *b, int limit, bool text, bool order)
{
	int mark = g->scratch_top;
	int oa = gen_mem(g, a), ob = gen_mem(g, b);
	int sa = a->type->size, sb = b->type->size, n = sa < sb ? sa : sb;
	bool bounded = limit <= n; /* `limit` bytes matched: equal */
	if (bounded)
		n = limit;
	int loop = label_new(g), full = label_new(g), ne = label_new(g), eq = label_new(g),
	    end = label_new(g);
	emit(g, I_MOV64_IMM(BPF_REG_1, 0));
	label_place(g, loop);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_1, n, full);
	emit(g, I_MOV64_REG(BPF_REG_2, R_SCR));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_2, BPF_REG_1));
	emit_ldx(g, BPF_B, BPF_REG_3, BPF_REG_2, oa);
	emit_ldx(g, BPF_B, BPF_REG_4, BPF_REG_2, ob);
	emit_jmp_reg(g, BPF_JNE, BPF_REG_3, BPF_REG_4, ne);
	if (text)
		emit_jmp_imm(g, BPF_JEQ, BPF_REG_3, 0, eq);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	emit_goto(g, loop);
	label_place(g, full);
	/* n bytes matched without a NUL: equal only if the longer one ends */
	emit(g, I_MOV64_IMM(BPF_REG_0, 0));
	if (sa != sb && !bounded && text) {
		emit_ldx(g, BPF_B, BPF_REG_0, R_SCR, (sa > sb ? oa : ob) + n);
		if (order && sb > sa) /* b goes on: a sorts first */
			emit(g, I_NEG64(BPF_REG_0));
	}
	emit_goto(g, end);
	label_place(g, eq);
	emit(g, I_MOV64_IMM(BPF_REG_0, 0));
	emit_goto(g, end);
	label_place(g, ne);
	if (order) {
		emit(g, I_MOV64_REG(BPF_REG_0, BPF_REG_3));
		emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_0, BPF_REG_4));
	} else {
		emit(g, I_MOV64_IMM(BPF_REG_0, 1));
	}
	label_place(g, end);
	g->scratch_top = mark;
}

static void gen_str_equality(Gen *g, const Expr *e)
{
	const Expr *a = e->a, *b = e->b;
	int done = label_new(g);
	if (a->type->kind != TY_STR)
		gen_cmp_loop(g, a, b, INT_MAX, false, false); /* arrays, buffers */
	else if (b->kind == E_STR)
		gen_strcmp_literal(g, a, b);
	else if (a->kind == E_STR)
		gen_strcmp_literal(g, b, a);
	else
		gen_strcmp(g, a, b, INT_MAX);
	/* r0 == 0 means equal */
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_0));
	emit(g, I_MOV64_IMM(BPF_REG_0, e->op == OP_EQ ? 1 : 0));
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, done);
	emit(g, I_MOV64_IMM(BPF_REG_0, e->op == OP_EQ ? 0 : 1));
	label_place(g, done);
}

static void gen_binop(Gen *g, const Expr *e)
{
	if (e->op == OP_LAND || e->op == OP_LOR) {
		gen_logical(g, e);
		return;
	}
	TypeKind k = e->a->type->kind;
	if (k == TY_STR && e->op != OP_EQ && e->op != OP_NE) {
		gen_str_order(g, e); /* D only: sema refuses it in bpftrace's dialect */
		return;
	}
	if (k == TY_STR || k == TY_ARRAY || k == TY_BUF) {
		gen_str_equality(g, e);
		return;
	}
	gen_int(g, e->a);
	if (e->aux2 > 1) /* integer + pointer: scaled by the pointee's size */
		emit(g, I_ALU64_IMM(BPF_MUL, BPF_REG_0, e->aux2));
	int slot = stack_push(g);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, slot));
	gen_int(g, e->b);
	if (e->aux > 1) /* pointer +/- integer */
		emit(g, I_ALU64_IMM(BPF_MUL, BPF_REG_0, e->aux));
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, slot));
	stack_pop(g);
	if (e->op == OP_DIV || e->op == OP_MOD)
		cg_divisor_check(g, BPF_REG_0);
	bool sign = e->a->type->is_signed && e->b->type->is_signed;
	int op = alu_op(e->op);
	if (op < 0) {
		gen_compare(g, e->op, sign);
		return;
	}
	if (op == BPF_RSH && e->a->type->is_signed)
		op = BPF_ARSH;
	gen_alu_r1(g, op, cg_signed_div(g, e->a->type, e->b->type));
	emit(g, I_MOV64_REG(BPF_REG_0, BPF_REG_1));
}

/* Whether / and % of these operands divide signed: as the dialect says
 * (D: when C's usual conversions give a signed type, -7 / 2 is -3); else
 * never, as in bpftrace 0.17 (-7 / 2 is 9223372036854775804). */
bool cg_signed_div(const Gen *g, const Type *a, const Type *b)
{
	const CodegenHooks *h = codegen_hooks(g->sc);
	if (!h->signed_div || !a || !b)
		return false;
	return h->signed_div(a, b);
}

/* r1 = r1 / r0 or r1 % r0 (64-bit).  Signed: BPF_SDIV/BPF_SMOD where the
 * kernel has them, else the magnitudes divided unsigned and the sign put
 * back (a quotient negative when the signs differ, a remainder with the
 * dividend's sign, as C truncates).  r2 is used. */
void gen_divmod(Gen *g, int op, bool sign)
{
	if (!sign) {
		emit(g, I_ALU64_REG(op, BPF_REG_1, BPF_REG_0));
		return;
	}
	if (kernel_has_bpf_sdiv()) {
		struct bpf_insn in = I_ALU64_REG(op, BPF_REG_1, BPF_REG_0);
		in.off = 1;
		emit(g, in);
		return;
	}
	int a_pos = label_new(g), b_pos = label_new(g), done = label_new(g);
	emit(g, I_MOV64_IMM(BPF_REG_2, 0));
	emit_jmp_imm(g, BPF_JSGE, BPF_REG_1, 0, a_pos);
	emit(g, I_NEG64(BPF_REG_1));
	emit(g, I_MOV64_IMM(BPF_REG_2, 1));
	label_place(g, a_pos);
	emit_jmp_imm(g, BPF_JSGE, BPF_REG_0, 0, b_pos);
	emit(g, I_NEG64(BPF_REG_0));
	if (op == BPF_DIV)
		emit(g, I_ALU64_IMM(BPF_XOR, BPF_REG_2, 1));
	label_place(g, b_pos);
	emit(g, I_ALU64_REG(op, BPF_REG_1, BPF_REG_0));
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_2, 0, done);
	emit(g, I_NEG64(BPF_REG_1));
	label_place(g, done);
}

/* r1 = r1 OP r0 for a BPF ALU op; / and % through gen_divmod */
void gen_alu_r1(Gen *g, int op, bool sign_div)
{
	if (op == BPF_DIV || op == BPF_MOD)
		gen_divmod(g, op, sign_div);
	else
		emit(g, I_ALU64_REG(op, BPF_REG_1, BPF_REG_0));
}

/* bpftrace negates (and complements) an unsigned integer in its own width:
 * -(uint32)1 is 4294967295, ~(uint8)1 is 254.  (A signed one narrower than
 * 64 bits is sign-extended here; see docs/bpftrace-compat.md.) */
static void unop_wrap_unsigned(Gen *g, const Expr *e)
{
	const Type *t = e->a->type;
	if (codegen_hooks(g->sc)->c_int_rules || t->is_signed || t->pointee || t->bits <= 0 ||
	    t->bits >= 64)
		return;
	if (t->bits == 32)
		emit(g, I_MOV32_REG(BPF_REG_0, BPF_REG_0));
	else
		emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_0, (int32_t)((1u << t->bits) - 1)));
}

static void gen_unop(Gen *g, const Expr *e)
{
	if (e->op == OP_DEREF) {
		gen_place_int(g, e);
		return;
	}
	if (e->op == OP_ADDR) { /* &$x: where the variable lives (scratch or stack) */
		emit(g, I_MOV64_REG(BPF_REG_0, cg_var_reg(e->a->var)));
		emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_0, e->a->var->off));
		return;
	}
	gen_int(g, e->a);
	switch (e->op) {
	case OP_NEG:
		emit(g, I_NEG64(BPF_REG_0));
		unop_wrap_unsigned(g, e);
		break;
	case OP_BNOT:
		emit(g, I_ALU64_IMM(BPF_XOR, BPF_REG_0, -1));
		unop_wrap_unsigned(g, e);
		break;
	case OP_LNOT: {
		int z = label_new(g);
		emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_0));
		emit(g, I_MOV64_IMM(BPF_REG_0, 1));
		emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, z);
		emit(g, I_MOV64_IMM(BPF_REG_0, 0));
		label_place(g, z);
		break;
	}
	default:
		break;
	}
}

static void gen_ternary_int(Gen *g, const Expr *e)
{
	int els = label_new(g), end = label_new(g);
	gen_int(g, e->a);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, els);
	if (e->b != e->a) /* `a ?: c`: r0 holds a */
		gen_int(g, e->b);
	emit_goto(g, end);
	label_place(g, els);
	gen_int(g, e->c);
	label_place(g, end);
}

/* args->field of a tracepoint: direct context loads */
static void gen_tp_field_int(Gen *g, const Expr *e)
{
	const TpField *f = e->auxp;
	static const int sz[] = {[1] = BPF_B, [2] = BPF_H, [4] = BPF_W, [8] = BPF_DW};
	emit(g, I_LDX(sz[f->size], BPF_REG_0, R_CTX, f->offset));
	gen_cast_r0(g, e->type);
}

static void gen_field_int(Gen *g, const Expr *e)
{
	if (cg_is_place(e)) {
		gen_place_int(g, e);
		return;
	}
	if (cg_is_dwarf_local(e)) {
		gen_dwarf_local_int(g, e);
		return;
	}
	if (cg_is_uevent(e)) {
		gen_uevent_int(g, e);
		return;
	}
	if (e->a->type->kind == TY_CTX) {
		gen_tp_field_int(g, e);
		return;
	}
	int mark = g->scratch_top;
	int off = gen_mem(g, e->a);
	emit_ldx(g, BPF_DW, BPF_REG_0, R_SCR, off + e->a->type->offset[e->aux]);
	g->scratch_top = mark;
}

static void gen_incdec(Gen *g, const Expr *e)
{
	const Expr *t = e->a;
	if (t->kind == E_MAP) {
		gen_map_incdec(g, e);
		return;
	}
	if (t->kind != E_VAR) {
		gen_store_incdec(g, e);
		return;
	}
	int off = t->var->off;
	emit_ldx(g, BPF_DW, BPF_REG_0, cg_var_reg(t->var), off);
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_0));
	emit(g, I_ALU64_IMM(e->op == OP_ADD ? BPF_ADD : BPF_SUB, BPF_REG_1, sema_ctype_step(t->var->type)));
	gen_cast_reg(g, BPF_REG_1, t->var->type);
	emit_stx(g, BPF_DW, cg_var_reg(t->var), BPF_REG_1, off);
	if (!e->post)
		emit(g, I_MOV64_REG(BPF_REG_0, BPF_REG_1));
}

static void gen_posparam_int(Gen *g, const Expr *e)
{
	long long v = 0;
	if (e->aux)
		v = strtoll(g->sc->opt.params[e->ival - 1], NULL, 0);
	emit_ld_imm64(g, BPF_REG_0, (uint64_t)v);
}

static void gen_int_kind(Gen *g, const Expr *e)
{
	switch (e->kind) {
	case E_INT:
	case E_SIZEOF:
		if (e->ival <= INT32_MAX)
			emit(g, I_MOV64_IMM(BPF_REG_0, (int32_t)e->ival));
		else
			emit_ld_imm64(g, BPF_REG_0, e->ival);
		return;
	case E_POSPARAM:
		gen_posparam_int(g, e);
		return;
	case E_POSCOUNT:
		emit(g, I_MOV64_IMM(BPF_REG_0, g->sc->opt.nparams));
		return;
	case E_BUILTIN:
		gen_builtin_int(g, e);
		return;
	case E_VAR:
		emit_ldx(g, BPF_DW, BPF_REG_0, cg_var_reg(e->var), e->var->off);
		return;
	case E_MAP:
		gen_map_read_int(g, e);
		return;
	case E_CALL:
		gen_call_int(g, e);
		return;
	case E_BINOP:
		gen_binop(g, e);
		return;
	case E_UNOP:
		gen_unop(g, e);
		return;
	case E_TERNARY:
		gen_ternary_int(g, e);
		return;
	case E_FIELD:
		gen_field_int(g, e);
		return;
	case E_CAST:
		gen_int(g, e->a);
		gen_cast_r0(g, e->type);
		return;
	case E_INCDEC:
		gen_incdec(g, e);
		return;
	case E_INDEX:
		gen_place_int(g, e);
		return;
	case E_BLOCK:
		gen_stmts(g, &e->block);
		gen_int(g, e->a);
		return;
	default:
		emit(g, I_MOV64_IMM(BPF_REG_0, 0));
	}
}

int gen_mem(Gen *g, const Expr *e)
{
	int off = scratch_alloc(g, e->type->size);
	gen_into(g, e, off, e->type);
	return off;
}

/* two records of the same fields in another order */
static bool fields_reordered(const Type *st, const Type *dt)
{
	for (int i = 0; st->names && dt->names && i < st->nelem; i++)
		if (type_elem_slot(dt, st, i) != i)
			return true;
	return false;
}

/* Copy a value between layouts: strings may widen (zero tail), tuples
 * re-lay their elements, everything else is bytes. */
void gen_copy_value(Gen *g, int src_reg, int src_off, const Type *st, int dst_off,
		    const Type *dt)
{
	if (st->kind == TY_TUPLE && dt->kind == TY_TUPLE && st != dt &&
	    (st->size != dt->size || fields_reordered(st, dt))) {
		for (int i = 0; i < st->nelem; i++) {
			int j = type_elem_slot(dt, st, i);
			if (j >= 0)
				gen_copy_value(g, src_reg, src_off + st->offset[i], st->elem[i],
					       dst_off + dt->offset[j], dt->elem[j]);
		}
		return;
	}
	int n = st->size < dt->size ? st->size : dt->size;
	emit_memcpy(g, dst_off, src_reg, src_off, n);
	if (dt->size > n)
		emit_memzero(g, dst_off + n, dt->size - n);
	else if (st->kind == TY_STR && st->size > dt->size)
		emit_st(g, BPF_B, R_SCR, dst_off + dt->size - 1, 0);
}

static void gen_str_literal_into(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	int n = (int)e->slen < dt->size ? (int)e->slen : dt->size - 1;
	if (n >= e->type->size) /* a D constant's value is at most strsize bytes */
		n = e->type->size - 1;
	emit_store_bytes(g, dst_off, e->sval, n);
	emit_memzero(g, dst_off + n, dt->size - n);
}

static void gen_tp_field_into(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	const TpField *f = e->auxp;
	if (f->is_data_loc) {
		/* __data_loc: low 16 bits = offset of the string in the record */
		emit_memzero(g, dst_off, dt->size);
		emit(g, I_LDX(BPF_W, BPF_REG_3, R_CTX, f->offset));
		emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_3, 0xffff));
		emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_3, R_CTX));
		emit_scratch_ptr(g, BPF_REG_1, dst_off);
		emit(g, I_MOV64_IMM(BPF_REG_2, e->type->size));
		emit_call(g, BPF_FUNC_probe_read_kernel_str);
		return;
	}
	/* char array: aligned context loads only, as the verifier requires */
	int n = f->array_len < dt->size ? f->array_len : dt->size;
	for (int i = 0; i < n;) {
		int a = f->offset + i, w = 1, bpf = BPF_B;
		if (a % 8 == 0 && i + 8 <= n)
			w = 8, bpf = BPF_DW;
		else if (a % 4 == 0 && i + 4 <= n)
			w = 4, bpf = BPF_W;
		emit(g, I_LDX(bpf, BPF_REG_1, R_CTX, a));
		emit_stx(g, bpf, R_SCR, BPF_REG_1, dst_off + i);
		i += w;
	}
	if (dt->size > n)
		emit_memzero(g, dst_off + n, dt->size - n);
	else
		emit_st(g, BPF_B, R_SCR, dst_off + dt->size - 1, 0);
}

/* each element in the order written, into its place in dt (a record's
 * field of that name: dt's order may differ) */
static void gen_tuple_into(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	bool in_dt = dt->kind == TY_TUPLE;
	for (int i = 0; i < e->args.n; i++) {
		int j = in_dt ? type_elem_slot(dt, e->type, i) : i;
		if (j < 0)
			continue;
		const Type *et = in_dt ? dt->elem[j] : e->args.v[i]->type;
		int eo = in_dt ? dt->offset[j] : e->type->offset[i];
		gen_into(g, e->args.v[i], dst_off + eo, et);
		int pad = ((et->size + 7) & ~7) - et->size;
		if (pad)
			emit_memzero(g, dst_off + eo + et->size, pad);
	}
}

static void gen_ternary_into(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	int els = label_new(g), end = label_new(g);
	gen_int(g, e->a);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, els);
	gen_into(g, e->b, dst_off, dt);
	emit_goto(g, end);
	label_place(g, els);
	gen_into(g, e->c, dst_off, dt);
	label_place(g, end);
}

static void gen_field_into(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	if (cg_is_place(e)) {
		gen_place_into(g, e, dst_off, dt);
		return;
	}
	if (cg_is_uevent(e)) {
		gen_uevent_into(g, e, dst_off, dt);
		return;
	}
	if (e->a->type->kind == TY_CTX) {
		gen_tp_field_into(g, e, dst_off, dt);
		return;
	}
	int mark = g->scratch_top;
	int off = gen_mem(g, e->a);
	gen_copy_value(g, R_SCR, off + e->a->type->offset[e->aux], e->type, dst_off, dt);
	g->scratch_top = mark;
}

static void gen_into_kind(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	if (e->type->kind == TY_INT) {
		gen_int(g, e);
		if (codegen_hooks(g->sc)->c_int_rules) /* into a D variable's type: int x = 1L << 40 */
			gen_cast_r0(g, dt);
		emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, dst_off);
		return;
	}
	switch (e->kind) {
	case E_STR:
		gen_str_literal_into(g, e, dst_off, dt);
		return;
	case E_VAR:
		gen_copy_value(g, R_SCR, e->var->off, e->var->type, dst_off, dt);
		return;
	case E_MAP:
		gen_map_read_into(g, e, dst_off, dt);
		return;
	case E_BUILTIN:
		gen_builtin_into(g, e, dst_off, dt);
		return;
	case E_CALL:
		gen_call_into(g, e, dst_off, dt);
		return;
	case E_FIELD:
		gen_field_into(g, e, dst_off, dt);
		return;
	case E_TUPLE:
		gen_tuple_into(g, e, dst_off, dt);
		return;
	case E_TERNARY:
		gen_ternary_into(g, e, dst_off, dt);
		return;
	case E_BLOCK:
		gen_stmts(g, &e->block);
		gen_into(g, e->a, dst_off, dt);
		return;
	case E_CAST: /* (typeof(x))v of a string, tuple...: v; none: zero */
		if (e->a)
			gen_into(g, e->a, dst_off, dt);
		else
			emit_memzero(g, dst_off, dt->size);
		return;
	case E_UNOP:
	case E_INDEX:
		gen_place_into(g, e, dst_off, dt);
		return;
	default:
		emit_memzero(g, dst_off, dt->size);
	}
}

/* The expression being generated is where a helper it calls fails (-k);
 * the enclosing one's again once it is done. */
void gen_int(Gen *g, const Expr *e)
{
	Loc outer = g->loc;
	g->loc = e->loc;
	gen_int_kind(g, e);
	g->loc = outer;
}

void gen_into(Gen *g, const Expr *e, int dst_off, const Type *dt)
{
	Loc outer = g->loc;
	g->loc = e->loc;
	gen_into_kind(g, e, dst_off, dt);
	g->loc = outer;
}
