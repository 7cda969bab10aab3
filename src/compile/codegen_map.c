/* Maps: keys, lookups, plain assignments and per-CPU aggregations. */
#include "codegen.h"

static const Type key_zero = {.kind = TY_INT, .size = 8, .bits = 64};

/* a key part's value is fixed in one probe's program for one attach
 * point: a literal, a positional parameter, or the attach point's name
 * (func, probe, D's probefunc...; a shared program reads its function's
 * from a table); *per_spec when it is the attach point's */
static bool key_part_fixed(const Expr *e, bool *per_spec)
{
	switch (e->kind) {
	case E_INT:
	case E_STR:
	case E_POSPARAM:
	case E_POSCOUNT:
		return true;
	case E_BUILTIN:
		if (e->aux2 == B_FUNC && e->type->kind == TY_USYM) /* an address in a process */
			return false;
		*per_spec = true;
		return e->aux2 == B_FUNC || e->aux2 == B_PROBE || e->aux2 == B_DPROBE;
	default:
		return false;
	}
}

/* Adds the keys this access can make to its map's bound: one when every
 * key part is fixed, one per attach point the program serves when a part
 * is the attach point's name; no bound when any part varies at run time
 * (compile.c: size_maps sizes the map by it).  Reads and deletes count
 * too: an overcount only keeps a map bigger. */
static void count_keys(Gen *g, const Expr *map)
{
	MapInfo *m = map->map;
	bool per_spec = false;
	if (!m->key) { /* one zero key */
		m->key_bound = m->key_bound < 0 ? -1 : 1;
		return;
	}
	for (int i = 0; i < map->args.n && m->key_bound >= 0; i++)
		if (!key_part_fixed(map->args.v[i], &per_spec))
			m->key_bound = -1;
	if (m->key_bound < 0)
		return;
	int n = g->spec->group_n > 1 ? g->spec->group_n : 1;
	m->key_bound += per_spec ? n : 1;
}

/* Keys are built in scratch in the map's key layout; a map without keys
 * uses one 8-byte zero key. */
int gen_map_key(Gen *g, const Expr *map)
{
	const MapInfo *m = map->map;
	const Type *kt = m->key ? m->key : &key_zero;
	int off = scratch_alloc(g, kt->size);
	count_keys(g, map);
	if (!m->key) {
		emit_st(g, BPF_DW, R_SCR, off, 0);
	} else if (map->args.n == 1) {
		gen_into(g, map->args.v[0], off, kt);
	} else {
		for (int i = 0; i < map->args.n; i++) {
			gen_into(g, map->args.v[i], off + kt->offset[i], kt->elem[i]);
			int pad = ((kt->elem[i]->size + 7) & ~7) - kt->elem[i]->size;
			if (pad)
				emit_memzero(g, off + kt->offset[i] + kt->elem[i]->size, pad);
		}
	}
	return off;
}

void gen_map_lookup(Gen *g, const MapInfo *m, int key_off)
{
	emit_ld_map(g, BPF_REG_1, R_MAP, m->id);
	emit_scratch_ptr(g, BPF_REG_2, key_off);
	emit_call(g, BPF_FUNC_map_lookup_elem);
}

/* count a failed map update (D_DROP_* key) in this CPU's slot of the
 * drops map: D reports them as dtrace(1) does, the bpftrace dialect at the
 * end of the run (drops_d.c); a lost update is never silent */
static void gen_drop_count(Gen *g, int kind)
{
	int mark = g->scratch_top, key = scratch_alloc(g, 8), none = label_new(g);
	emit_st(g, BPF_W, R_SCR, key, kind);
	emit_ld_map(g, BPF_REG_1, R_DROPS, 0);
	emit_scratch_ptr(g, BPF_REG_2, key);
	emit_call(g, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, none);
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_0, 0));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	emit(g, I_STX(BPF_DW, BPF_REG_0, BPF_REG_1, 0));
	label_place(g, none);
	g->scratch_top = mark;
}

static void gen_map_update(Gen *g, const MapInfo *m, int key_off, int val_off)
{
	emit_ld_map(g, BPF_REG_1, R_MAP, m->id);
	emit_scratch_ptr(g, BPF_REG_2, key_off);
	emit_scratch_ptr(g, BPF_REG_3, val_off);
	emit(g, I_MOV64_IMM(BPF_REG_4, BPF_ANY));
	emit_call(g, BPF_FUNC_map_update_elem);
	gen_helper_check(g, BPF_FUNC_map_update_elem);
	/* a full (or busy) map: D's dynamic variable drop */
	int stored = label_new(g);
	emit_jmp_imm(g, BPF_JSGE, BPF_REG_0, 0, stored);
	gen_drop_count(g, D_DROP_DYNVAR);
	label_place(g, stored);
}

/* a lookup the script asked for: -kk reports a missing key */
static void gen_map_lookup_checked(Gen *g, const MapInfo *m, int key_off)
{
	gen_map_lookup(g, m, key_off);
	gen_helper_check(g, BPF_FUNC_map_lookup_elem);
}

/* r0 = the integer value at key, or 0 when the key is absent */
static void gen_map_load_int(Gen *g, const MapInfo *m, int key)
{
	int miss = label_new(g), done = label_new(g);
	gen_map_lookup_checked(g, m, key);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, miss);
	emit(g, I_LDX(BPF_DW, BPF_REG_0, BPF_REG_0, 0));
	emit_goto(g, done);
	label_place(g, miss);
	emit(g, I_MOV64_IMM(BPF_REG_0, 0));
	label_place(g, done);
}

void gen_map_read_int(Gen *g, const Expr *map)
{
	if (type_is_agg(map->map->val)) { /* sema lets count() etc. through only */
		gen_map_read_agg(g, map);
		return;
	}
	int mark = g->scratch_top;
	gen_map_load_int(g, map->map, gen_map_key(g, map));
	g->scratch_top = mark;
}

void gen_map_read_into(Gen *g, const Expr *map, int dst_off, const Type *dt)
{
	int mark = g->scratch_top;
	int key = gen_map_key(g, map);
	int miss = label_new(g), done = label_new(g);
	gen_map_lookup_checked(g, map->map, key);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_0, 0, miss);
	gen_copy_value(g, BPF_REG_0, 0, map->map->val, dst_off, dt);
	emit_goto(g, done);
	label_place(g, miss);
	emit_memzero(g, dst_off, dt->size);
	label_place(g, done);
	g->scratch_top = mark;
}

void gen_map_delete(Gen *g, const Expr *map)
{
	int mark = g->scratch_top;
	int key = gen_map_key(g, map);
	emit_ld_map(g, BPF_REG_1, R_MAP, map->map->id);
	emit_scratch_ptr(g, BPF_REG_2, key);
	emit_call(g, BPF_FUNC_map_delete_elem);
	gen_helper_check(g, BPF_FUNC_map_delete_elem);
	g->scratch_top = mark;
}

int cg_alu_of(Op op)
{
	static const int ops[] = {[OP_ADD] = BPF_ADD, [OP_SUB] = BPF_SUB, [OP_MUL] = BPF_MUL,
				  [OP_DIV] = BPF_DIV, [OP_MOD] = BPF_MOD, [OP_BAND] = BPF_AND,
				  [OP_BOR] = BPF_OR,  [OP_BXOR] = BPF_XOR, [OP_SHL] = BPF_LSH,
				  [OP_SHR] = BPF_RSH};
	return ops[op];
}

/* read-modify-write of an integer map value: r1 = old value, then
 * r1 op= operand (at stack slot), stored back; r0 = old, r1 = new */
static void gen_map_rmw(Gen *g, const Expr *map, Op op, int operand_slot, bool sign_div)
{
	int mark = g->scratch_top;
	int key = gen_map_key(g, map);
	int val = scratch_alloc(g, 8);
	gen_map_load_int(g, map->map, key);
	emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_10, operand_slot));
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, operand_slot)); /* keep old */
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_0));
	if (op == OP_DIV || op == OP_MOD)
		cg_divisor_check(g, BPF_REG_2);
	emit(g, I_MOV64_REG(BPF_REG_0, BPF_REG_2));
	gen_alu_r1(g, cg_alu_of(op), sign_div);
	gen_cast_reg(g, BPF_REG_1, map->map->val); /* D: the value's own width */
	emit_stx(g, BPF_DW, R_SCR, BPF_REG_1, val);
	gen_map_update(g, map->map, key, val);
	emit_ldx(g, BPF_DW, BPF_REG_1, R_SCR, val);
	emit(g, I_LDX(BPF_DW, BPF_REG_0, BPF_REG_10, operand_slot));
	g->scratch_top = mark;
}

void gen_map_incdec(Gen *g, const Expr *e)
{
	int slot = stack_push(g);
	if (e->post) /* @m[k]++ is at @m, as bpftrace reports it (-k) */
		g->loc = e->a->loc;
	emit(g, I_ST(BPF_DW, BPF_REG_10, slot, sema_ctype_step(e->a->map->val)));
	gen_map_rmw(g, e->a, e->op, slot, false);
	if (!e->post)
		emit(g, I_MOV64_REG(BPF_REG_0, BPF_REG_1));
	stack_pop(g);
}

void gen_map_assign(Gen *g, const Stmt *st)
{
	const Expr *t = st->target;
	if (st->op != OP_NONE) {
		gen_int(g, st->expr);
		gen_scale_step(g, st->op, t->map->val);
		int slot = stack_push(g);
		emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, slot));
		gen_map_rmw(g, t, st->op, slot, cg_signed_div(g, t->map->val, st->expr->type));
		stack_pop(g);
		return;
	}
	int mark = g->scratch_top;
	const Type *vt = t->map->val;
	int val = scratch_alloc(g, vt->size);
	gen_into(g, st->expr, val, vt);
	int key = gen_map_key(g, t);
	gen_map_update(g, t->map, key, val);
	g->scratch_top = mark;
}

/* r0 = pointer to this CPU's value for the key, creating a zeroed entry
 * first if there is none; jumps to `skip` when the map is full. */
void gen_map_slot(Gen *g, const MapInfo *m, int key, int skip, int drop_kind)
{
	int have = label_new(g);
	gen_map_lookup_checked(g, m, key);
	emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, have);
	if (m->val->size > g->sc->zero_size)
		g->sc->zero_size = m->val->size;
	emit_ld_map(g, BPF_REG_1, R_MAP, m->id);
	emit_scratch_ptr(g, BPF_REG_2, key);
	emit_ld_map_value(g, BPF_REG_3, R_ZERO, 0);
	emit(g, I_MOV64_IMM(BPF_REG_4, BPF_NOEXIST));
	emit_call(g, BPF_FUNC_map_update_elem);
	gen_helper_check(g, BPF_FUNC_map_update_elem);
	gen_map_lookup(g, m, key);
	/* a full (or busy) map: DTrace's drop */
	emit_jmp_imm(g, BPF_JNE, BPF_REG_0, 0, have);
	gen_drop_count(g, drop_kind);
	emit_goto(g, skip);
	label_place(g, have);
}

static void add_at(Gen *g, int reg_ptr, int off, int reg_val)
{
	emit(g, I_LDX(BPF_DW, BPF_REG_2, reg_ptr, off));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_2, reg_val));
	emit(g, I_STX(BPF_DW, reg_ptr, BPF_REG_2, off));
}

static void gen_minmax(Gen *g, bool is_min, bool sign, int skip)
{
	int set = label_new(g);
	emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_0, 8));
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_2, 0, set);
	emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_0, 0));
	int op = is_min ? (sign ? BPF_JSGE : BPF_JGE) : (sign ? BPF_JSLE : BPF_JLE);
	emit_jmp_reg(g, op, BPF_REG_1, BPF_REG_2, skip);
	label_place(g, set);
	emit(g, I_STX(BPF_DW, BPF_REG_0, BPF_REG_1, 0));
	emit(g, I_ST(BPF_DW, BPF_REG_0, 8, 1));
}

/* r1 = log2 bucket of r1 (see hist_bucket in types.h), then r0 += r1*8.
 * As in bpftrace 0.17: the value is taken as signed even when its type is
 * unsigned, and the search stops at 2^31, so every value >= 2^31 counts
 * in [2G, 4G). */
static void gen_hist_index(Gen *g)
{
	int neg = label_new(g), zero = label_new(g), done = label_new(g);
	emit_jmp_imm(g, BPF_JSLT, BPF_REG_1, 0, neg);
	emit_jmp_imm(g, BPF_JEQ, BPF_REG_1, 0, zero);
	emit(g, I_MOV64_IMM(BPF_REG_2, 2));
	bpf_emit_log2_search(&g->code, 16);
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_2));
	emit_goto(g, done);
	label_place(g, neg);
	emit(g, I_MOV64_IMM(BPF_REG_1, 0));
	emit_goto(g, done);
	label_place(g, zero);
	emit(g, I_MOV64_IMM(BPF_REG_1, 1));
	label_place(g, done);
}

/* r1 = bucket of r1 in bpftrace 0.26's hist (hist_nbuckets in types.h):
 * every bit of the value searched, 2^k buckets per power of 2 */
static void gen_wide_hist_index(Gen *g, int k)
{
	int neg = label_new(g), small = label_new(g), done = label_new(g);
	emit(g, I_MOV64_REG(BPF_REG_4, BPF_REG_1));
	emit_jmp_imm(g, BPF_JSLT, BPF_REG_1, 0, neg);
	emit_jmp_imm(g, BPF_JLT, BPF_REG_1, 1 << k, small);
	emit(g, I_MOV64_IMM(BPF_REG_2, 0));
	bpf_emit_log2_search(&g->code, 32); /* r2 = l, the top bit's index */
	emit(g, I_MOV64_REG(BPF_REG_3, BPF_REG_2));
	emit(g, I_ALU64_IMM(BPF_SUB, BPF_REG_3, k));
	emit(g, I_ALU64_REG(BPF_RSH, BPF_REG_4, BPF_REG_3));
	emit(g, I_ALU64_IMM(BPF_AND, BPF_REG_4, (1 << k) - 1));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_2, 1 - k));
	emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_2, k));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_2, BPF_REG_4));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_2, 1));
	emit(g, I_MOV64_REG(BPF_REG_1, BPF_REG_2));
	emit_goto(g, done);
	label_place(g, small);
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	emit_goto(g, done);
	label_place(g, neg);
	emit(g, I_MOV64_IMM(BPF_REG_1, 0));
	label_place(g, done);
}

static void gen_lhist_index(Gen *g, const Type *t)
{
	int nb = lhist_buckets(t), low = label_new(g), high = label_new(g), done = label_new(g);
	emit_ld_imm64(g, BPF_REG_2, (uint64_t)t->lh_min);
	emit_jmp_reg(g, BPF_JSLT, BPF_REG_1, BPF_REG_2, low);
	emit_ld_imm64(g, BPF_REG_3, (uint64_t)t->lh_max);
	emit_jmp_reg(g, BPF_JSGE, BPF_REG_1, BPF_REG_3, high);
	emit(g, I_ALU64_REG(BPF_SUB, BPF_REG_1, BPF_REG_2));
	emit_ld_imm64(g, BPF_REG_3, (uint64_t)t->lh_step);
	emit(g, I_ALU64_REG(BPF_DIV, BPF_REG_1, BPF_REG_3));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_1, 1));
	emit_goto(g, done);
	label_place(g, low);
	emit(g, I_MOV64_IMM(BPF_REG_1, 0));
	emit_goto(g, done);
	label_place(g, high);
	emit(g, I_MOV64_IMM(BPF_REG_1, nb - 1));
	label_place(g, done);
}

/* bucket r1 += 1, or += the value at stack slot incr (D's increment) */
void gen_bucket_add(Gen *g, int nbuckets, int incr)
{
	/* bound the index for the verifier, then count */
	int ok = label_new(g);
	emit_jmp_imm(g, BPF_JLT, BPF_REG_1, nbuckets, ok);
	emit(g, I_MOV64_IMM(BPF_REG_1, nbuckets - 1));
	label_place(g, ok);
	emit(g, I_ALU64_IMM(BPF_LSH, BPF_REG_1, 3));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1));
	if (incr)
		emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, incr));
	else
		emit(g, I_MOV64_IMM(BPF_REG_1, 1));
	add_at(g, BPF_REG_0, 0, BPF_REG_1);
}

/* Aggregations: per-CPU slots, plain loads and stores, no atomics needed:
 * only this CPU writes its slot. */
void gen_map_agg(Gen *g, const Expr *map, const Expr *call)
{
	const Type *t = map->map->val;
	bool sign = call->type->is_signed;
	int mark = g->scratch_top, skip = label_new(g);
	int slot = stack_push(g), incr = 0;
	if (call->args.n) {
		gen_int(g, call->args.v[0]);
		emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, slot));
	}
	if (call->aux && type_is_agg(call->type)) { /* D: quantize(v, incr) ... */
		incr = stack_push(g);
		gen_int(g, call->args.v[call->aux]);
		emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, incr));
	}
	int key = gen_map_key(g, map);
	gen_map_slot(g, map->map, key, skip, D_DROP_AGG);
	if (call->args.n)
		emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, slot));
	switch (t->kind) {
	case TY_COUNT:
		emit(g, I_MOV64_IMM(BPF_REG_1, 1));
		add_at(g, BPF_REG_0, 0, BPF_REG_1);
		break;
	case TY_SUM:
		add_at(g, BPF_REG_0, 0, BPF_REG_1);
		break;
	case TY_MIN:
	case TY_MAX:
		gen_minmax(g, t->kind == TY_MIN, sign, skip);
		break;
	case TY_AVG:
	case TY_STATS:
		add_at(g, BPF_REG_0, 8, BPF_REG_1);
		emit(g, I_MOV64_IMM(BPF_REG_1, 1));
		add_at(g, BPF_REG_0, 0, BPF_REG_1);
		break;
	case TY_HIST:
		if (t->hist_wide)
			gen_wide_hist_index(g, t->hist_k);
		else
			gen_hist_index(g);
		gen_bucket_add(g, hist_nbuckets(t), 0);
		break;
	case TY_LHIST:
		gen_lhist_index(g, t);
		gen_bucket_add(g, lhist_buckets(t), incr);
		break;
	default: /* the function's own (tseries), or the front end's (D's
		  * quantize, llquantize, stddev) */
		if (call->func && call->func->gen_agg)
			call->func->gen_agg(g, call);
		else if (codegen_hooks(g->sc)->agg_update)
			codegen_hooks(g->sc)->agg_update(g, t, incr);
		break;
	}
	label_place(g, skip);
	if (incr)
		stack_pop(g);
	stack_pop(g);
	g->scratch_top = mark;
}
