/* Stores into members, elements and pointees (sema_store.c): the place's
 * address is formed as a pointer the verifier accepts, then the value is
 * stored at the place's own width.
 *   - a map element (`i[k].calls`): the element's value in the map, created
 *     zeroed when absent (a full map: D's dynamic variable drop, the
 *     statement is skipped);
 *   - a struct/array variable (`this->s.a`): its scratch slot;
 *   - a member or constant element: the offset added; a run-time index is
 *     checked against the array's length first (D: DTrace's "index out of
 *     bounds" fault);
 *   - memory a pointer points at: D's scratch memory (alloca(), copyin())
 *     only: the address must lie in what the clause has allocated, else
 *     DTrace's "invalid address" fault, and the stored bytes too, else its
 *     "invalid size" (dcopy_store_ptr, dfunc_copy.c). */
#include "codegen.h"
#include "codegen_ctype.h"

static int width_op(int w)
{
	return w == 1 ? BPF_B : w == 2 ? BPF_H : w == 4 ? BPF_W : BPF_DW;
}

static void store_ptr(Gen *g, const Expr *e, int size, int skip);

/* is the place in memory some pointer on its way points at? */
static bool through_pointer(const Expr *e)
{
	for (; e->kind == E_FIELD || e->kind == E_INDEX || e->kind == E_UNOP; e = e->a)
		if (sema_store_via_pointer(e))
			return true;
	return false;
}

/* r0 = the map's value for e's key, created zeroed first if absent */
static void map_value_ptr(Gen *g, const Expr *e, int skip)
{
	int key = gen_map_key(g, e);
	gen_map_slot(g, e->map, key, skip, D_DROP_DYNVAR);
}

/* r0 += index * element size, the index checked against the array */
static void index_ptr(Gen *g, const Expr *e, int size, int skip)
{
	const Type *at = e->a->type;
	int esz = at->kind == TY_STR ? 1 : type_csize(at->pointee);
	store_ptr(g, e->a, size, skip);
	if (e->b->kind == E_INT) {
		cg_add_r0(g, (int64_t)e->b->ival * esz);
		return;
	}
	int count = at->kind == TY_ARRAY ? at->count : at->size;
	int base = stack_push(g), idx = scratch_alloc(g, 8);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, base));
	gen_int(g, e->b);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, idx);
	int bad = cg_fault_label(g, DTRACEFLT_BADINDEX, idx);
	emit_jmp_imm(g, BPF_JGE, BPF_REG_0, count, bad == g->exit_label ? skip : bad);
	if (esz > 1)
		emit(g, I_ALU64_IMM(BPF_MUL, BPF_REG_0, esz));
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, base));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1));
	stack_pop(g);
}

/* r0 = a pointer the verifier accepts to the `size` bytes of place e;
 * jumps to `skip` when the place cannot be had (a full map) */
static void store_ptr(Gen *g, const Expr *e, int size, int skip)
{
	if (e->kind == E_MAP) {
		map_value_ptr(g, e, skip);
	} else if (e->kind == E_VAR) { /* a struct or array variable: in scratch */
		emit(g, I_MOV64_REG(BPF_REG_0, R_SCR));
		cg_add_r0(g, e->var->off);
	} else if (through_pointer(e)) {
		int addr = scratch_alloc(g, 16); /* the address, then a spare slot */
		gen_place_addr(g, e);
		emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, addr);
		if (codegen_hooks(g->sc)->store_ptr)
			codegen_hooks(g->sc)->store_ptr(g, addr, size);
	} else if (e->kind == E_FIELD) {
		store_ptr(g, e->a, size, skip);
		cg_add_r0(g, ((const Field *)e->auxp)->offset);
	} else {
		index_ptr(g, e, size, skip);
	}
}

/* the value in r1 stored at the pointer in r0, at t's width */
static void store_int(Gen *g, const Type *t)
{
	emit(g, I_STX(width_op(type_csize(t)), BPF_REG_0, BPF_REG_1, 0));
}

/* r1 = the integer at the pointer in r0, extended as t says */
static void load_int(Gen *g, const Type *t)
{
	emit(g, I_LDX(width_op(type_csize(t)), BPF_REG_1, BPF_REG_0, 0));
	gen_cast_reg(g, BPF_REG_1, t);
}

/* a struct, array or string value (in scratch at src) copied to place t */
static void store_mem(Gen *g, const Expr *t, int src, int skip)
{
	store_ptr(g, t, t->type->size, skip);
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_0));
	emit(g, I_MOV64_IMM(BPF_REG_2, t->type->size));
	emit_scratch_ptr(g, BPF_REG_3, src);
	emit_call(g, BPF_FUNC_probe_read_kernel);
}

/* place op= operand (at stack slot `opnd`): r0 = the old value, r1 = the new */
static void store_rmw(Gen *g, const Expr *t, Op op, int opnd, bool sign_div, int skip)
{
	int ptr = stack_push(g);
	store_ptr(g, t, type_csize(t->type), skip);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, ptr));
	load_int(g, t->type);
	emit(g, I_LDX(BPF_DW, BPF_REG_0, BPF_REG_10, opnd));
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_1, opnd)); /* keep the old value */
	if (op == OP_DIV || op == OP_MOD)
		cg_divisor_check(g, BPF_REG_0);
	gen_alu_r1(g, cg_alu_of(op), sign_div);
	gen_cast_reg(g, BPF_REG_1, t->type);
	emit(g, I_LDX(BPF_DW, BPF_REG_0, BPF_REG_10, ptr));
	store_int(g, t->type);
	emit(g, I_LDX(BPF_DW, BPF_REG_0, BPF_REG_10, opnd));
	stack_pop(g);
}

void gen_store_assign(Gen *g, const Stmt *st)
{
	const Expr *t = st->target;
	int mark = g->scratch_top, skip = label_new(g);
	if (t->type->kind != TY_INT) {
		int src = scratch_alloc(g, t->type->size);
		gen_into(g, st->expr, src, t->type);
		store_mem(g, t, src, skip);
	} else {
		gen_int(g, st->expr);
		if (st->op != OP_NONE)
			gen_scale_step(g, st->op, t->type);
		int v = stack_push(g);
		emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, v));
		if (st->op != OP_NONE) {
			store_rmw(g, t, st->op, v, cg_signed_div(g, t->type, st->expr->type), skip);
		} else {
			store_ptr(g, t, type_csize(t->type), skip);
			emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, v));
			store_int(g, t->type);
		}
		stack_pop(g);
	}
	label_place(g, skip);
	g->scratch_top = mark;
}

/* ++ and -- of a place: r0 = the value before (postfix) or after */
void gen_store_incdec(Gen *g, const Expr *e)
{
	int mark = g->scratch_top, skip = label_new(g), done = label_new(g);
	int v = stack_push(g);
	emit(g, I_ST(BPF_DW, BPF_REG_10, v, sema_ctype_step(e->a->type)));
	store_rmw(g, e->a, e->op, v, false, skip);
	if (!e->post)
		emit(g, I_MOV64_REG(BPF_REG_0, BPF_REG_1));
	emit_goto(g, done);
	label_place(g, skip);
	emit(g, I_MOV64_IMM(BPF_REG_0, 0));
	label_place(g, done);
	stack_pop(g);
	g->scratch_top = mark;
}
