/* The functions on whole maps and their entries: delete, clear, zero (D's
 * clear() of an aggregation too), and bpftrace 0.26's has_key, find, len
 * and delete(@m, key) that says whether it deleted; each one's type rule and
 * code generation.  clear() and zero() are done by the runtime, on an
 * event. */
#include "../compile/codegen.h"
#include "../compile/sema_int.h"

/* delete(@m[k]): the keys as the map's other uses have them */
static bool check_delete(Sema *s, Expr *c)
{
	return sema_arg_map(s, c, 0, true);
}

static void gen_delete(Gen *g, const Expr *e)
{
	gen_map_delete(g, e->args.v[0]);
}

/* clear(@m), zero(@m): the whole map, without [keys] */
static bool check_whole_map(Sema *s, Expr *c)
{
	return sema_arg_map(s, c, 0, false);
}

static void gen_map_event(Gen *g, const Expr *e, EventKind kind)
{
	EventDesc *ev = event_new(g, kind, 0);
	ev->map = e->args.v[0]->map;
	gen_simple_event(g, ev);
}

static void gen_clear(Gen *g, const Expr *e)
{
	gen_map_event(g, e, EV_CLEAR);
}

static void gen_zero(Gen *g, const Expr *e)
{
	gen_map_event(g, e, EV_ZERO);
}

/* --- bpftrace 0.26: a map and a key as two arguments ------------------ */

/* r0 = (r0 OP imm): 1 or 0 */
static void gen_r0_is(Gen *g, int op, int32_t imm)
{
	int yes = label_new(g), done = label_new(g);
	emit_jmp_imm(g, op, BPF_REG_0, imm, yes);
	emit(g, I_MOV64_IMM(BPF_REG_0, 0));
	emit_goto(g, done);
	label_place(g, yes);
	emit(g, I_MOV64_IMM(BPF_REG_0, 1));
	label_place(g, done);
}

/* f(@m, k) is f(@m[k]): k's elements when it is a tuple literal (@m[1, 2]
 * is @m[(1, 2)]), else k; done once (later passes see the map with its
 * keys; the call keeps its two arguments, codegen reads the first) */
static void key_into_map(Sema *s, Expr *c)
{
	Expr *m = c->args.v[0], *k = c->args.v[1];
	if (m->kind != E_MAP || m->args.n)
		return;
	if (k->kind == E_TUPLE) {
		m->args = k->args;
	} else {
		m->args.v = arena_alloc(&s->sc->arena, sizeof(Expr *));
		m->args.v[0] = k;
		m->args.n = 1;
	}
}

/* a map known to have no keys (@m = 1) */
static bool map_is_scalar(Sema *s, const Expr *m)
{
	if (m->kind != E_MAP || m->args.n)
		return false;
	const MapInfo *mi = script_map(s->sc, m->name, m->loc);
	return mi->val && !mi->key;
}

/* delete(@m, k), delete(@m[k]), delete(@m) of a map without keys: true
 * when a key was deleted */
static bool check_delete_026(Sema *s, Expr *c)
{
	if (c->args.n == 2)
		key_into_map(s, c);
	if (!sema_arg_map(s, c, 0, true))
		return false;
	c->type = sema_truth_type(s);
	return true;
}

static void gen_delete_026(Gen *g, const Expr *e)
{
	const Expr *m = e->args.v[0];
	int mark = g->scratch_top, key = gen_map_key(g, m);
	emit_ld_map(g, BPF_REG_1, R_MAP, m->map->id);
	emit_scratch_ptr(g, BPF_REG_2, key);
	emit_call(g, BPF_FUNC_map_delete_elem);
	g->scratch_top = mark;
	gen_r0_is(g, BPF_JEQ, 0); /* 0: deleted, -ENOENT: no such key */
}

/* has_key(@m, k): a map with keys */
static bool check_has_key(Sema *s, Expr *c)
{
	if (map_is_scalar(s, c->args.v[0]))
		return sema_error(s, c->loc, "call to has_key() expects a map with explicit keys "
				  "(non-scalar map)");
	key_into_map(s, c);
	if (!sema_arg_map(s, c, 0, true))
		return false;
	c->type = sema_truth_type(s);
	return true;
}

static void gen_has_key(Gen *g, const Expr *e)
{
	const Expr *m = e->args.v[0];
	int mark = g->scratch_top;
	gen_map_lookup(g, m->map, gen_map_key(g, m));
	g->scratch_top = mark;
	gen_r0_is(g, BPF_JNE, 0); /* the value's address */
}

/* find(@m, k, $v): has_key's answer, and on a hit $v = @m[k] (the
 * assignment is a statement made once, typed as any `$v = @m[k]`: the
 * variable takes the map's value type; in auxp) */
static bool check_find(Sema *s, Expr *c)
{
	Expr *v = c->args.v[2];
	if (map_is_scalar(s, c->args.v[0]))
		return sema_error(s, c->loc, "call to find() expects a map with explicit keys "
				  "(non-scalar map)");
	if (v->kind != E_VAR)
		return sema_error(s, v->loc, "find() expects a scratch variable ($name) as its third "
				  "argument, to set to the value found");
	key_into_map(s, c);
	if (!sema_arg_map(s, c, 0, true))
		return false;
	StmtList *set = c->auxp;
	if (!set) {
		Stmt *st = arena_alloc(&s->sc->ast->arena, sizeof(Stmt));
		*st = (Stmt){.kind = S_ASSIGN, .loc = c->loc, .op_loc = v->loc, .target = v,
			     .expr = c->args.v[0]};
		set = arena_alloc(&s->sc->ast->arena, sizeof(StmtList));
		set->v = arena_alloc(&s->sc->ast->arena, sizeof(Stmt *));
		set->v[0] = st;
		set->n = 1;
		c->auxp = set;
	}
	if (!sema_assign_var(s, set->v[0]))
		return false;
	c->type = sema_truth_type(s);
	return true;
}

/* a hit runs the assignment (its own read of the entry: an aggregation's
 * value is its CPUs' slots merged, as any read of it) */
static void gen_find(Gen *g, const Expr *e)
{
	const Expr *m = e->args.v[0];
	int mark = g->scratch_top, miss = label_new(g), done = label_new(g);
	gen_map_lookup(g, m->map, gen_map_key(g, m));
	g->scratch_top = mark;
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, miss);
	gen_stmts(g, e->auxp);
	emit(g, I_MOV64_IMM(BPF_REG_0, 1));
	emit_goto(g, done);
	label_place(g, miss);
	emit(g, I_MOV64_IMM(BPF_REG_0, 0));
	label_place(g, done);
}

/* len(@m): the elements in the map */
static bool check_len(Sema *s, Expr *c)
{
	if (!sema_arg_map(s, c, 0, false))
		return false;
	c->type = ty_int(s, 64, true);
	return true;
}

/* bpf_for_each_map_elem returns the elements it visited: with a callback
 * that goes on at each, all of them */
static void gen_len(Gen *g, const Expr *e)
{
	emit_ld_map(g, BPF_REG_1, R_MAP, e->args.v[0]->map->id);
	bpf_emit_ld_func(&g->code, BPF_REG_2, gen_counting_callback(g));
	emit(g, I_MOV64_IMM(BPF_REG_3, 0));
	emit(g, I_MOV64_IMM(BPF_REG_4, 0));
	emit_call(g, BPF_FUNC_for_each_map_elem);
}

static const FuncDef map_funcs[] = {
	{"delete", FK_STMT, 1, 1, check_delete, .gen_stmt = gen_delete},
	{"clear", FK_STMT, 1, 1, check_whole_map, .gen_stmt = gen_clear},
	{"zero", FK_STMT, 1, 1, check_whole_map, .gen_stmt = gen_zero},
	{"delete", FK_EXPR, 1, 2, check_delete_026, .gen_int = gen_delete_026,
	 .sets = FSET_BT_STDLIB},
	{"has_key", FK_EXPR, 2, 2, check_has_key, .gen_int = gen_has_key,
	 .sets = FSET_BT_STDLIB},
	{"len", FK_EXPR, 1, 1, check_len, .gen_int = gen_len, .sets = FSET_BT_STDLIB},
	{"find", FK_EXPR, 3, 3, check_find, .gen_int = gen_find, .sets = FSET_BT_STDLIB},
};
BUILTINS(map_funcs)
