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

/* ---- attach points ---- */

static Program *parse_gen(const BtGeneration *g, const char *text, Error *err)
{
	Source src = { "test", text };
	memset(err, 0, sizeof(*err));
	return parse_program_opts(&src, &g->parse, err);
}

/* the first attach point's text as the parser leaves it */
static void check_ap(const BtGeneration *g, const char *prog, const char *want)
{
	Error err;
	Program *p = parse_gen(g, prog, &err);
	CHECK(p != NULL);
	if (p)
		CHECK_STR(p->probes[0]->aps[0].text, want);
	if (p)
		program_free(p);
}

static void test_begin_end(void)
{
	check_ap(g026, "begin { }", "BEGIN");
	check_ap(g026, "End { }", "END");
	check_ap(g026, "BEGIN { }", "BEGIN");
	check_ap(g026, "Tracepoint:sched:sched_switch { }", "tracepoint:sched:sched_switch");
	check_ap(g026, "uprobe:/bin/Bash:Main { }", "uprobe:/bin/Bash:Main");
	check_ap(g026, "beginning:x { }", "beginning:x");
	/* 0.17: as written (the provider lookup refuses them) */
	check_ap(g017, "begin { }", "begin");
	check_ap(g017, "Tracepoint:sched:x { }", "Tracepoint:sched:x");
	/* several begin probes are CodegenHooks.many_begin_end's */
	CHECK(g026->codegen && g026->codegen->many_begin_end);
	CHECK(!g017->codegen || !g017->codegen->many_begin_end);
}

int main(void)
{
	g026 = bt_generation_named("0.26.1");
	g017 = bt_generation_named("0.17");
	test_generations();
	test_begin_end();
	return check_done("test_bt26");
}
