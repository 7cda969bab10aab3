/* bpftrace 0.26 reads a count/sum/avg/min/max map as a number
 * (SemaHooks.agg_values; compile/codegen_aggread.c): its type, the code
 * (bpf_map_lookup_percpu_elem in a loop over the CPUs), print(@m[k]) of
 * the aggregations that are no number in 0.26's words, and 0.17, which
 * refuses every read.  The values on the real kernel:
 * tests/runtime/test_bt26_agg_read.sh. */
#include <stdlib.h>

#include "check.h"
#include "compile_check.h"
#include "bt/generation_bt.h"
#include "compile/sema.h"

static const BtGeneration *g026, *g017;

/* statement i of the first probe: its expression's type */
static const Type *stmt_type(const Compiled *c, int i)
{
	const Stmt *st = c->prog->probes[0]->body.v[i];
	return st->expr ? st->expr->type : NULL;
}

static void test_types(void)
{
	Compiled c = compile_as(g026, "begin { @c = count(); @s = sum(-1); @a = avg(2); @c; @s; @a; }");
	CHECK(c.sc != NULL);
	if (c.sc) {
		const Type *tc = stmt_type(&c, 3), *ts = stmt_type(&c, 4), *ta = stmt_type(&c, 5);
		CHECK(tc && tc->kind == TY_INT && tc->size == 8 && !tc->is_signed);
		CHECK(ts && ts->kind == TY_INT && ts->is_signed);
		CHECK(ta && ta->kind == TY_INT && ta->is_signed);
		CHECK(helper_calls(c.sc, BPF_FUNC_map_lookup_percpu_elem));
	}
	compiled_free(&c);
	const char *ok[] = {
		"begin { @c[1] = count(); print(@c[1]); }",
		"begin { @a = sum(10); @b = count(); $c = @a + @b; }",
		"begin { @m = min(1); @x = max(2); if (@m < @x) { printf(\"%d %d\\n\", @m, @x); } }",
		"begin { @a[1, \"k\"] = avg(1); @v = @a[1, \"k\"]; }",
	};
	for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		Compiled r = compile_as(g026, ok[i]);
		if (!r.sc)
			fprintf(stderr, "FAIL: %s: %s\n", ok[i], r.err.msg);
		CHECK(r.sc && helper_calls(r.sc, BPF_FUNC_map_lookup_percpu_elem));
		compiled_free(&r);
	}
	/* a map that is no aggregation reads as before */
	Compiled p = compile_as(g026, "begin { @m = 1; $x = @m; }");
	CHECK(p.sc && !helper_calls(p.sc, BPF_FUNC_map_lookup_percpu_elem));
	compiled_free(&p);
}

static void test_errors(void)
{
	expect_error_as(g026, NULL, "begin { @x[1] = hist(10); print(@x[1]); }", 1, 27,
			"Map type hist_t cannot print the value of individual keys. You must print the "
			"whole map.");
	expect_error_as(g026, NULL, "begin { @x[1] = lhist(1, 0, 10, 1); print(@x[1]); }", 1, 37,
			"Map type lhist_t cannot print the value of individual keys. You must print the "
			"whole map.");
	expect_error_as(g026, NULL, "begin { @x[1] = stats(1); print(@x[1]); }", 1, 27,
			"stats_t type passed to print() is not printable");
	expect_error_as(g026, NULL, "begin { @x[1] = count(); print(@x[1], 3, 5); }", 1, 26,
			"Non-map print() only takes 1 argument, 3 found");
	/* 0.17: no aggregation is a number */
	expect_error_as(g017, NULL, "BEGIN { @x[1] = count(); print(@x[1]); }", 1, 26,
			"The map passed to print() should not be indexed by a key\n"
			"hint: print(@x) prints every key");
	expect_error_as(g017, NULL, "BEGIN { @c = count(); $y = @c; }", 1, 28,
			"@c holds count(), which can only be printed (print(@c))");
}

int main(void)
{
	unsetenv("SONDE_COMPAT");
	g026 = bt_generation_named("0.26");
	g017 = bt_generation_named("0.17");
	test_types();
	test_errors();
	return check_done("test_agg_read_bt26");
}
