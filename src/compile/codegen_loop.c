/* for loops.  A loop's body is a callback the kernel calls: for a range,
 * bpf_loop(end - start, body, ctx, 0) with the iteration's index; for a
 * map, bpf_for_each_map_elem(map, body, ctx, 0) with each element's key
 * and value.  The verifier checks a callback once, whatever the count, so
 * a loop costs neither unrolled code nor the verifier's walk of every
 * iteration (a plain back-edge over an unknown bound is rejected).
 *
 * The body sees what the probe sees: ctx is a pointer to two slots of the
 * caller's stack holding its r6 (the context) and r7 (this CPU's scratch),
 * which the callback restores.  A variable used in one loop's body only
 * (the loop's own variable, say) lives on that callback's stack, where the
 * verifier follows its value (a while loop on it stays bounded); so does
 * an integer variable no loop's body uses, on the probe's stack; the
 * others live in scratch, which every frame reaches (cg_var_reg).  The callback returns 1 to stop
 * (break, or return/exit(), which also sets a flag in scratch that the
 * caller tests after the call), 0 to go on (continue, the body's end).
 * Callbacks are generated after the program's last instruction, as BPF
 * subprograms must be; nested loops' after their parent's. */
#include "codegen.h"

static bool stmts_have_for(const StmtList *l);

/* a for loop in a block used as a value (bpftrace 0.26) */
static bool expr_has_for(const Expr *e)
{
	if (!e)
		return false;
	if (stmts_have_for(&e->block) || expr_has_for(e->a) || expr_has_for(e->b) ||
	    expr_has_for(e->c))
		return true;
	for (int i = 0; i < e->args.n; i++)
		if (expr_has_for(e->args.v[i]))
			return true;
	return false;
}

static bool stmts_have_for(const StmtList *l)
{
	for (int i = 0; i < l->n; i++) {
		const Stmt *s = l->v[i];
		if (s->kind == S_FOR || stmts_have_for(&s->body) || stmts_have_for(&s->els) ||
		    expr_has_for(s->expr) || expr_has_for(s->target))
			return true;
	}
	return false;
}

bool codegen_has_loops(const Probe *p)
{
	return stmts_have_for(&p->body);
}

/* where each variable is used: in one loop's body only (VarInfo.loop),
 * or elsewhere too (NULL: the probe's, shared through scratch) */
typedef struct Homes {
	VarInfo **vars;
	bool *seen;
	bool *in_loop; /* used in some loop's body */
	int n;
} Homes;

static void use_var(Homes *h, VarInfo *v, const Stmt *loop)
{
	for (int i = 0; v && i < h->n; i++) {
		if (h->vars[i] != v)
			continue;
		if (!h->seen[i])
			v->loop = loop;
		else if (v->loop != loop)
			v->loop = NULL;
		h->seen[i] = true;
		h->in_loop[i] |= loop != NULL;
	}
}

static void homes_stmts(Homes *h, const StmtList *l, const Stmt *loop);

static void homes_expr(Homes *h, const Expr *e, const Stmt *loop)
{
	if (!e)
		return;
	homes_stmts(h, &e->block, loop);
	if (e->kind == E_VAR)
		use_var(h, e->var, loop);
	homes_expr(h, e->a, loop);
	homes_expr(h, e->b, loop);
	homes_expr(h, e->c, loop);
	for (int i = 0; i < e->args.n; i++)
		homes_expr(h, e->args.v[i], loop);
}

static void homes_stmts(Homes *h, const StmtList *l, const Stmt *loop)
{
	for (int i = 0; i < l->n; i++) {
		const Stmt *s = l->v[i];
		homes_expr(h, s->expr, loop);
		homes_expr(h, s->target, s->kind == S_FOR ? s : loop);
		homes_stmts(h, &s->body, s->kind == S_FOR ? s : loop);
		homes_stmts(h, &s->els, loop);
	}
}

void codegen_loop_homes(const Probe *p, VarInfo **vars, int nvars)
{
	Homes h = {vars, xcalloc((size_t)nvars + 1, sizeof(bool)),
		   xcalloc((size_t)nvars + 1, sizeof(bool)), nvars};
	for (int i = 0; i < nvars; i++)
		vars[i]->loop = NULL;
	homes_expr(&h, p->pred, NULL);
	homes_stmts(&h, &p->body, NULL);
	for (int i = 0; i < nvars; i++) {
		if (!vars[i]->type || vars[i]->type->kind != TY_INT)
			vars[i]->loop = NULL; /* values that are not integers live in scratch */
		vars[i]->loop_shared = h.in_loop[i] && !vars[i]->loop;
	}
	free(h.seen);
	free(h.in_loop);
}

/* the integer variables only this loop's body uses: on its stack, zeroed
 * at each iteration's start */
static void place_body_vars(Gen *g, const Stmt *loop)
{
	for (int i = 0; i < g->nvars; i++) {
		VarInfo *v = g->vars[i];
		if (v->loop != loop)
			continue;
		v->off = stack_push(g);
		emit(g, I_ST(BPF_DW, BPF_REG_10, v->off, 0));
	}
}

/* r3 = the callback's ctx: r6 and r7 in two slots of this frame's stack
 * (r0 kept) */
static void gen_loop_ctx(Gen *g, int *slot)
{
	stack_push(g);
	*slot = stack_push(g);
	emit(g, I_STX(BPF_DW, BPF_REG_10, R_CTX, *slot));
	emit(g, I_STX(BPF_DW, BPF_REG_10, R_SCR, *slot + 8));
	emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_10));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_3, *slot));
}

/* The helper call that runs cb's callback: bpf_loop(r0, cb, ctx, 0) with
 * the count in r0, or bpf_for_each_map_elem(map, cb, ctx, 0) for a map;
 * the callback is generated later (gen_loop_callbacks) */
static void emit_bpf_loop(Gen *g, const LoopCb *cb, const MapInfo *map)
{
	int slot;
	gen_loop_ctx(g, &slot);
	if (map)
		emit_ld_map(g, BPF_REG_1, R_MAP, map->id);
	else
		emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_0)); /* the count */
	bpf_emit_ld_func(&g->code, BPF_REG_2, cb->label);
	emit(g, I_MOV64_IMM(BPF_REG_4, 0));
	emit_call(g, map ? BPF_FUNC_for_each_map_elem : BPF_FUNC_loop);
	stack_pop(g);
	stack_pop(g);
	vec_push(&g->loop_cbs, *cb);
}

/* bpf_loop's count: end - start, nothing when that is not positive (at
 * most BPF_MAX_LOOPS, the kernel's bound: more and bpf_loop runs none) */
static void gen_range_call(Gen *g, const Expr *r, LoopCb *cb, int skip)
{
	cb->start_off = scratch_alloc(g, 8);
	gen_int(g, r->a);
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_0, cb->start_off);
	gen_int(g, r->b);
	emit_ldx(g, BPF_DW, BPF_REG_1, R_SCR, cb->start_off);
	emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_0, BPF_REG_1));
	emit_jmp_imm(g, BPF_JSLE, BPF_REG_0, 0, skip);
}

static void gen_for(Gen *g, const Stmt *st)
{
	LoopCb cb = {.st = st, .label = label_new(g)};
	int skip = label_new(g);
	cb.ret_off = scratch_alloc(g, 8);
	emit_st(g, BPF_DW, R_SCR, cb.ret_off, 0);
	if (st->expr->kind == E_RANGE)
		gen_range_call(g, st->expr, &cb, skip);
	cb.scratch_top = g->scratch_top;
	emit_bpf_loop(g, &cb, st->expr->kind == E_RANGE ? NULL : st->expr->map);
	emit_ldx(g, BPF_DW, BPF_REG_0, R_SCR, cb.ret_off);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, g->exit_label);
	label_place(g, skip);
}

void gen_loop_stmt(Gen *g, const Stmt *st)
{
	gen_for(g, st);
}

void gen_loop_call(Gen *g, LoopBodyFn body, const int *args, int nargs)
{
	LoopCb cb = {.body = body, .label = label_new(g), .scratch_top = g->scratch_top,
		     .line = g->code.line};
	for (int i = 0; i < nargs && i < LOOP_ARGS_MAX; i++)
		cb.args[i] = args[i];
	emit_bpf_loop(g, &cb, NULL);
}

/* the loop variable: the range's start plus the index (r1), or the key
 * (r2) and value (r3) copied into the (key, value) tuple */
static void gen_loop_var(Gen *g, const LoopCb *cb)
{
	const VarInfo *v = cb->st->target->var;
	if (cb->st->expr->kind == E_RANGE) {
		emit_ldx(g, BPF_DW, BPF_REG_0, R_SCR, cb->start_off);
		emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1));
		emit_stx(g, BPF_DW, cg_var_reg(v), BPF_REG_0, v->off);
		return;
	}
	const Type *t = v->type;
	int val = stack_push(g);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_3, val)); /* a large copy clobbers r1-r5 */
	emit_memcpy(g, v->off, BPF_REG_2, 0, t->elem[0]->size);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, val));
	emit_memcpy(g, v->off + t->offset[1], BPF_REG_1, 0, t->elem[1]->size);
	stack_pop(g);
}

/* code after an exit is dead until a label some jump targets (emit.c
 * drops it): a loop without break or return has no such path */
static void emit_exit_dead(Gen *g)
{
	emit(g, I_EXIT());
	g->code.dead = true;
}

static void gen_return(Gen *g, int label, int value)
{
	label_place(g, label);
	emit(g, I_MOV64_IMM(BPF_REG_0, value));
	emit_exit_dead(g);
}

/* a built-in's callback: its body restores nothing else and returns */
static void gen_builtin_callback(Gen *g, const LoopCb *cb)
{
	g->code.dead = false;
	label_place(g, cb->label);
	vec_push(&g->func_starts, g->code.insns.n);
	g->code.line = cb->line;
	emit(g, I_LDX(BPF_DW, R_CTX, BPF_REG_2, 0));
	emit(g, I_LDX(BPF_DW, R_SCR, BPF_REG_2, 8));
	g->stack_used = 0;
	g->scratch_top = cb->scratch_top;
	cb->body(g, cb->args);
	g->code.dead = true;
}

static void gen_callback(Gen *g, const LoopCb *cb)
{
	if (cb->body)
		return gen_builtin_callback(g, cb);
	int brk = label_new(g), cont = label_new(g), ret = label_new(g);
	g->code.dead = false; /* the helper call's ld_func targets it */
	label_place(g, cb->label);
	vec_push(&g->func_starts, g->code.insns.n);
	g->code.line = cb->st->loc.line;
	int ctx = cb->st->expr->kind == E_RANGE ? BPF_REG_2 : BPF_REG_4;
	emit(g, I_LDX(BPF_DW, R_CTX, ctx, 0));
	emit(g, I_LDX(BPF_DW, R_SCR, ctx, 8));
	g->stack_used = 0;
	g->scratch_top = cb->scratch_top;
	g->loop_break.n = g->loop_continue.n = 0;
	g->exit_label = ret;
	place_body_vars(g, cb->st);
	gen_loop_var(g, cb);
	vec_push(&g->loop_break, brk);
	vec_push(&g->loop_continue, cont);
	gen_stmts(g, &cb->st->body);
	gen_return(g, cont, 0);
	gen_return(g, brk, 1);
	label_place(g, ret);
	emit_st(g, BPF_DW, R_SCR, cb->ret_off, 1);
	emit(g, I_MOV64_IMM(BPF_REG_0, 1));
	emit_exit_dead(g);
}

int gen_counting_callback(Gen *g)
{
	if (!g->count_cb)
		g->count_cb = 1 + label_new(g);
	return g->count_cb - 1;
}

/* return 0: bpf_for_each_map_elem goes on to the next element */
static void gen_counting_body(Gen *g)
{
	g->code.dead = false;
	label_place(g, g->count_cb - 1);
	vec_push(&g->func_starts, g->code.insns.n);
	emit(g, I_MOV64_IMM(BPF_REG_0, 0));
	emit_exit_dead(g);
}

/* after the program's last instruction: each loop's callback, and those
 * of the loops in them (appended to the list as they are generated), and
 * the counting callback if some code calls it */
void gen_loop_callbacks(Gen *g)
{
	for (int i = 0; i < g->loop_cbs.n && !g->err->set; i++) {
		LoopCb cb = g->loop_cbs.v[i];
		gen_callback(g, &cb);
	}
	if (g->count_cb && !g->err->set)
		gen_counting_body(g);
}
