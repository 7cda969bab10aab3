/* bpftrace's generations (src/bt/generation_bt.c) and the language of
 * bpftrace 0.26.1 as the parser and sema take it: each 0.26 rule on in the
 * default generation, off under 0.17. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "bt/generation_bt.h"
#include "lang/ast.h"

static const BtGeneration *g026, *g017;

/* ---- the generations ---- */

static void test_generations(void)
{
	CHECK(g026 && g017 && g026 != g017);
	CHECK(bt_generation_named("0.17.0") == g017);
	CHECK(bt_generation_named("0.26") == g026);
	CHECK(!bt_generation_named("0.170"));
	CHECK(!bt_generation_named("0.18"));
	CHECK(!bt_generation_named(""));
	/* 0.17 is every rule off: the parser as it was */
	CHECK(!memcmp(&g017->parse, &parse_opts_017, sizeof(ParseOpts)));
	unsetenv("SONDE_COMPAT");
	CHECK(bt_generation_from_env() == g026);
	setenv("SONDE_COMPAT", "0.17", 1);
	CHECK(bt_generation_from_env() == g017);
	unsetenv("SONDE_COMPAT");
}

int main(void)
{
	g026 = bt_generation_named("0.26.1");
	g017 = bt_generation_named("0.17");
	test_generations();
	return check_done("test_bt26");
}
