/* bpftrace 0.26's tseries(v, interval, count [, agg]): an aggregation that
 * keeps the last `count` intervals of `interval` ns, each with the last
 * value recorded in it (or their avg, max, min, sum).  Its type rule and
 * its update of the map's slot (types.h: TY_TSERIES); the runtime prints
 * it (runtime/tseries_print.c). */
#include <string.h>
#include <time.h>

#include "../compile/codegen.h"
#include "../compile/sema_int.h"

static const char *const agg_names[] = {
	[TS_AGG_LAST] = "", [TS_AGG_AVG] = "avg", [TS_AGG_MAX] = "max",
	[TS_AGG_MIN] = "min", [TS_AGG_SUM] = "sum",
};

static bool ts_agg(Sema *s, Expr *c, int *agg)
{
	*agg = TS_AGG_LAST;
	if (c->args.n < 4)
		return true;
	if (!sema_arg_literal_str(s, c, 3))
		return false;
	for (int i = TS_AGG_AVG; i <= TS_AGG_SUM; i++)
		if (!strcmp(c->args.v[3]->sval, agg_names[i])) {
			*agg = i;
			return true;
		}
	return sema_error(s, c->args.v[3]->loc,
			  "tseries() expects one of the following aggregation functions: avg, max, "
			  "min, sum (\"%s\" provided)", c->args.v[3]->sval);
}

/* BPFTRACE_DUMMY_TS_MAP (Options.ts_map): the time is that scalar map's
 * value, not the clock's (bpftrace's own tests step it) */
static bool ts_source(Sema *s, Expr *c)
{
	const char *name = s->sc->opt.ts_map;
	if (!name)
		return true;
	Expr *m = expr_new(s->sc->ast, E_MAP, c->loc);
	m->name = arena_strdup(&s->sc->arena, name[0] == '@' ? name + 1 : name);
	c->auxp = m;
	return sema_expr(s, m);
}

static bool check_tseries(Sema *s, Expr *c)
{
	int64_t interval, count;
	int agg;
	if (!sema_agg_int_arg(s, c, 0) || !sema_arg_literal_int(s, c, 1, &interval) ||
	    !sema_arg_literal_int(s, c, 2, &count) || !ts_agg(s, c, &agg) || !ts_source(s, c))
		return false;
	if (interval <= 0)
		return sema_error(s, c->args.v[1]->loc, "tseries() interval_ns must be >= 1 (%lld "
				  "provided)", (long long)interval);
	if (count <= 0 || count > 1000000)
		return sema_error(s, c->args.v[2]->loc, "tseries() num_intervals must be between 1 "
				  "and 1000000 (%lld provided)", (long long)count);
	c->type = ty_simple(s, TY_TSERIES, (int)count * TSERIES_SLOT);
	c->type->ts_interval = (uint64_t)interval;
	c->type->ts_count = (int)count;
	c->type->ts_agg = agg;
	c->type->is_signed = c->args.v[0]->type->kind != TY_INT || c->args.v[0]->type->is_signed;
	return true;
}

/* r0 = now: the dummy map's value, or the boot clock moved to the wall
 * clock's epoch (measured when the program is compiled) */
static void gen_now(Gen *g, const Expr *c)
{
	if (c->auxp) {
		gen_int(g, c->auxp);
		return;
	}
	struct timespec rt, bt;
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_BOOTTIME, &bt);
	int64_t off = (rt.tv_sec - bt.tv_sec) * 1000000000LL + (rt.tv_nsec - bt.tv_nsec);
	emit_call(g, BPF_FUNC_ktime_get_boot_ns);
	emit_ld_imm64(g, BPF_REG_1, (uint64_t)off);
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1));
}

/* r1 = the value, r3 = the interval's slot: a new interval starts over,
 * else the value combines with what the interval has */
static void gen_combine(Gen *g, const Type *t, int done)
{
	int op = t->ts_agg == TS_AGG_MAX ? (t->is_signed ? BPF_JSGE : BPF_JGE)
					  : (t->is_signed ? BPF_JSLE : BPF_JLE);
	emit(g, I_LDX(BPF_DW, BPF_REG_2, BPF_REG_3, 8));
	switch (t->ts_agg) {
	case TS_AGG_SUM:
	case TS_AGG_AVG:
		emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_1, BPF_REG_2));
		break;
	case TS_AGG_MIN:
	case TS_AGG_MAX:
		emit_jmp_reg(g, op, BPF_REG_2, BPF_REG_1, done);
		break;
	}
	emit(g, I_STX(BPF_DW, BPF_REG_3, BPF_REG_1, 8));
}

static void gen_tseries(Gen *g, const Expr *c)
{
	const Type *t = c->type;
	int val = stack_push(g), slot = stack_push(g), now = stack_push(g);
	int same = label_new(g), done = label_new(g);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_1, val));
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, slot));
	gen_now(g, c);
	emit(g, I_STX(BPF_DW, BPF_REG_10, BPF_REG_0, now));
	/* r2 = the interval's number + 1, r3 = its slot */
	emit_ld_imm64(g, BPF_REG_1, t->ts_interval);
	emit(g, I_ALU64_REG(BPF_DIV, BPF_REG_0, BPF_REG_1));
	emit(g, I_MOV64_REG(BPF_REG_2, BPF_REG_0));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_2, 1));
	emit_ld_imm64(g, BPF_REG_1, (uint64_t)t->ts_count);
	emit(g, I_ALU64_REG(BPF_MOD, BPF_REG_0, BPF_REG_1));
	emit_jmp_imm(g, BPF_JGE, BPF_REG_0, t->ts_count, done); /* bounds, for the verifier */
	emit(g, I_ALU64_IMM(BPF_MUL, BPF_REG_0, TSERIES_SLOT));
	emit(g, I_LDX(BPF_DW, BPF_REG_3, BPF_REG_10, slot));
	emit(g, I_ALU64_REG(BPF_ADD, BPF_REG_3, BPF_REG_0));
	emit(g, I_LDX(BPF_DW, BPF_REG_1, BPF_REG_10, val));
	emit(g, I_LDX(BPF_DW, BPF_REG_4, BPF_REG_10, now));
	emit(g, I_STX(BPF_DW, BPF_REG_3, BPF_REG_4, 24));
	emit(g, I_LDX(BPF_DW, BPF_REG_4, BPF_REG_3, 0));
	emit_jmp_reg(g, BPF_JEQ, BPF_REG_4, BPF_REG_2, same);
	emit(g, I_STX(BPF_DW, BPF_REG_3, BPF_REG_2, 0));
	emit(g, I_STX(BPF_DW, BPF_REG_3, BPF_REG_1, 8));
	emit(g, I_ST(BPF_DW, BPF_REG_3, 16, 1));
	emit_goto(g, done);
	label_place(g, same);
	emit(g, I_LDX(BPF_DW, BPF_REG_4, BPF_REG_3, 16));
	emit(g, I_ALU64_IMM(BPF_ADD, BPF_REG_4, 1));
	emit(g, I_STX(BPF_DW, BPF_REG_3, BPF_REG_4, 16));
	gen_combine(g, t, done);
	label_place(g, done);
	stack_pop(g);
	stack_pop(g);
	stack_pop(g);
}

static const FuncDef tseries_funcs[] = {
	{"tseries", FK_AGG, 3, 4, check_tseries, .gen_agg = gen_tseries,
	 .sets = FSET_BT_STDLIB},
};
BUILTINS(tseries_funcs)
