/* bpftrace's aggregations: count, sum, avg, min, max, stats, hist, lhist
 * (D's count/sum/avg/min/max too); each one's type rule.  Their value is
 * an aggregation type (TY_COUNT...), by which the core updates the map
 * (codegen_map.c: gen_map_agg) and the runtime prints it. */
#include "../compile/sema_hooks.h"
#include "../compile/builtin.h"

/* the aggregation of the row's kind (FuncDef.agg); its operand, if any,
 * an integer */
static bool check_agg(Sema *s, Expr *c)
{
	TypeKind k = c->func->agg;
	bool is_signed = true;
	if (c->args.n) {
		if (!sema_int_operand(s, c, 0))
			return false;
		is_signed = c->args.v[0]->type->kind != TY_INT || c->args.v[0]->type->is_signed;
	}
	if (sema_hooks(s)->aggs_signed)
		is_signed = true; /* DTrace's min/max/sum compare and print signed */
	int size = k == TY_HIST ? HIST_BUCKETS * 8 : (k == TY_COUNT || k == TY_SUM) ? 8 : 16;
	c->type = ty_simple(s, k, size);
	c->type->is_signed = is_signed;
	return true;
}

/* bpftrace 0.26's hist(n[, k]): 2^k buckets per power of 2, 0 <= k <= 5,
 * values up to 2^63 (0.17's stops at [2G, 4G)) */
static bool check_hist(Sema *s, Expr *c)
{
	int64_t k = 0;
	if (!check_agg(s, c) || (c->args.n > 1 && !sema_arg_literal_int(s, c, 1, &k)))
		return false;
	if (k < 0 || k > 5)
		return sema_error(s, c->args.v[1]->loc, "hist() k must be in the range 0 to 5 (%lld "
				  "provided)", (long long)k);
	c->type->hist_wide = true;
	c->type->hist_k = (int)k;
	c->type->size = hist_nbuckets(c->type) * 8;
	return true;
}

/* lhist's min, max and step: integer literals (bpftrace's words) */
static bool lhist_literal(Sema *s, Expr *c, int i, int64_t *out)
{
	Expr *a = c->args.v[i];
	sema_posparam_fold(s, a);
	bool neg = a->kind == E_UNOP && a->op == OP_NEG && a->a->kind == E_INT;
	if (a->kind == E_INT || neg) {
		*out = neg ? -(int64_t)a->a->ival : (int64_t)a->ival;
		return true;
	}
	if (!sema_expr(s, a))
		return false;
	return sema_error_late(s, c->loc, "%s() expects a integer literal (%s provided)", c->name,
			       bpf_kind(a->type));
}

static bool check_lhist(Sema *s, Expr *c)
{
	int64_t mn, mx, step;
	if (!sema_agg_int_arg(s, c, 0) || !lhist_literal(s, c, 1, &mn) || !lhist_literal(s, c, 2, &mx) ||
	    !lhist_literal(s, c, 3, &step))
		return false;
	/* bpftrace 0.17's checks, in its order and words: each that fails is
	 * an error of its own */
	bool ok = true;
	if (step < 1)
		ok = sema_error_late(s, c->loc, "lhist() step must be >= 1 (%lld provided)",
				     (long long)step);
	if (mn < 0 && (ok || s->all))
		ok = sema_error_late(s, c->loc, "lhist() min must be non-negative (provided min %lld)",
				     (long long)mn);
	if (mn > mx && (ok || s->all))
		ok = sema_error_late(s, c->loc, "lhist() min must be less than max (provided min %lld "
				     "and max %lld)", (long long)mn, (long long)mx);
	if (mx - mn < step && (ok || s->all))
		ok = sema_error_late(s, c->loc, "lhist() step is too large for the given range "
				     "(provided step %lld for range %lld)", (long long)step,
				     (long long)(mx - mn));
	if (step >= 1 && (mx - mn) / step > 1000 && (ok || s->all))
		ok = sema_error_late(s, c->loc, "lhist() too many buckets, must be <= 1000 (would need "
				     "%lld)", (long long)((mx - mn) / step));
	if (!ok)
		return false;
	c->type = ty_simple(s, TY_LHIST, 0);
	c->type->lh_min = mn;
	c->type->lh_max = mx;
	c->type->lh_step = step;
	c->type->size = lhist_buckets(c->type) * 8;
	return true;
}

static const FuncDef agg_funcs[] = {
	{"count", FK_AGG, 0, 0, check_agg, .agg = TY_COUNT},
	{"sum", FK_AGG, 1, 1, check_agg, .agg = TY_SUM},
	{"avg", FK_AGG, 1, 1, check_agg, .agg = TY_AVG},
	{"min", FK_AGG, 1, 1, check_agg, .agg = TY_MIN},
	{"max", FK_AGG, 1, 1, check_agg, .agg = TY_MAX},
	{"stats", FK_AGG, 1, 1, check_agg, .agg = TY_STATS},
	{"hist", FK_AGG, 1, 1, check_agg, .agg = TY_HIST},
	{"hist", FK_AGG, 1, 2, check_hist, .agg = TY_HIST, .sets = FSET_BT_STDLIB},
	{"lhist", FK_AGG, 4, 4, check_lhist, .agg = TY_LHIST},
};
BUILTINS(agg_funcs)
