/* bpftrace 0.26's hist(n[, k]) (builtins/aggs.c's FSET_BT_STDLIB row):
 * its type (the wide layout, k, the size), 0.17's hist unchanged, the
 * misuse of k, and the layout's arithmetic that codegen, the printers and
 * --metrics share (types.h: hist_nbuckets, hist_low).  Its output on the
 * real kernel: tests/runtime/cases/bt26_hist.bt. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compile_check.h"
#include "bt/generation_bt.h"
#include "compile/sema.h"

static const BtGeneration *g026, *g017;

static const Type *map_val(const Compiled *c, const char *name)
{
	for (int i = 0; c->sc && i < c->sc->maps.n; i++)
		if (!strcmp(c->sc->maps.v[i]->name, name))
			return c->sc->maps.v[i]->val;
	return NULL;
}

static void expect_err(const BtGeneration *g, const char *prog, int col, const char *msg)
{
	check_error_col(compile_as(g, prog), prog, col, msg);
}

static void test_types(void)
{
	Compiled r = compile_as(g026, "begin { @a = hist(1); @b = hist(1, 3); @c = hist(1, 0); }");
	const Type *a = map_val(&r, "a"), *b = map_val(&r, "b"), *c = map_val(&r, "c");
	CHECK(a && a->kind == TY_HIST && a->hist_wide && a->hist_k == 0 && a->size == 65 * 8);
	CHECK(b && b->hist_wide && b->hist_k == 3 && b->size == ((61 << 3) + 1) * 8);
	CHECK(c && c->hist_wide && c->hist_k == 0);
	compiled_free(&r);
	r = compile_as(g017, "BEGIN { @a = hist(1); }");
	a = map_val(&r, "a");
	CHECK(a && !a->hist_wide && a->size == HIST_BUCKETS * 8);
	compiled_free(&r);
}

static void test_errors(void)
{
	expect_err(g026, "begin { @ = hist(1, 6); }", 21, "hist() k must be in the range 0 to 5 "
		   "(6 provided)");
	expect_err(g026, "begin { @ = hist(1, -1); }", 21, "hist() k must be in the range 0 to 5 "
		   "(-1 provided)");
	expect_err(g026, "begin { $k = 1; @ = hist(1, $k); }", 29,
		   "hist() argument 2 must be an integer literal");
	Compiled r = compile_as(g017, "BEGIN { @ = hist(1, 2); }");
	CHECK(!r.sc && r.err.set);
	compiled_free(&r);
}

/* bucket bounds: k = 0 is 0.17's [2^n, 2^(n+1)) up to 2^63; k = 3 counts
 * 0..15 one value a bucket, then 8 buckets per power of 2 */
static void test_layout(void)
{
	Type t = {.kind = TY_HIST, .hist_wide = true};
	CHECK(hist_nbuckets(&t) == 65);
	CHECK(hist_low(&t, 1) == 0 && hist_low(&t, 2) == 1 && hist_low(&t, 3) == 2);
	CHECK(hist_low(&t, 35) == 1ULL << 33 && hist_low(&t, 65) == 1ULL << 63);
	t.hist_k = 3;
	CHECK(hist_nbuckets(&t) == (61 << 3) + 1);
	CHECK(hist_low(&t, 16) == 15 && hist_low(&t, 17) == 16 && hist_low(&t, 18) == 18);
	CHECK(hist_low(&t, 25) == 32 && hist_low(&t, 26) == 36);
	CHECK(hist_low(&t, hist_nbuckets(&t)) == 1ULL << 63);
	t.hist_k = 5;
	CHECK(hist_low(&t, hist_nbuckets(&t)) == 1ULL << 63);
}

int main(void)
{
	unsetenv("SONDE_COMPAT");
	g026 = bt_generation_named("0.26");
	g017 = bt_generation_named("0.17");
	test_types();
	test_errors();
	test_layout();
	return check_done("test_hist_bt26");
}
