/* bpftrace 0.26's assert(cond, msg), static_assert(cond, msg) and fail(fmt,
 * args...) (src/builtins/assert.c) and the constant conditions that decide
 * whether a branch runs (src/compile/sema_const.c): types, errors
 * (message and line:col), what codegen emits, 0.17 without them.  Their
 * output on the real kernel: tests/runtime/test_bt26_assert.sh. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compile_check.h"
#include "bt/generation_bt.h"
#include "compile/builtin.h"

static const BtGeneration *g026, *g017;

#define expect_gen_error(g, ...) expect_error_as(g, NULL, __VA_ARGS__)

static bool compiles(const char *text)
{
	Compiled r = compile_as_sym(g026, text, NULL);
	bool ok = r.sc != NULL;
	if (!ok)
		fprintf(stderr, "  %s: %s\n", text, r.err.msg);
	compiled_free(&r);
	return ok;
}

/* assert's failure is an error diagnostic and an exit with status 1 */
static void test_assert(void)
{
	Compiled r = compile_as_sym(g026, "begin { assert(pid > 1, \"low pid\"); }", NULL);
	CHECK(r.sc != NULL);
	if (r.sc) {
		CHECK(r.sc->events.n == 2);
		const EventDesc *d = r.sc->events.v[0], *x = r.sc->events.v[1];
		CHECK(d->kind == EV_DIAG && !strcmp(d->text, "ERROR") && d->nargs == 1);
		CHECK(d->loc.line == 1 && d->loc.col == 9);
		CHECK(x->kind == EV_EXIT && x->nargs == 1);
	}
	compiled_free(&r);
	CHECK(compiles("begin { $s = \"x\"; assert(true, $s); assert(1, \"one\"); }"));
	expect_gen_error(g026, "begin { assert(1, 2); }", 1, 19,
			 "assert() only supports string arguments (integer provided)");
	expect_gen_error(g026, "begin { assert(1); }", 1, 9,
			 "assert() requires 2 arguments (1 provided)");
	expect_gen_error(g017, "BEGIN { assert(1, \"x\"); }", 1, 9, "Unknown function: assert");
}

static void test_static_assert(void)
{
	CHECK(compiles("begin { static_assert(1 + 1 == 2, \"math\"); static_assert(!0, \"x\"); }"));
	expect_gen_error(g026, "begin { static_assert(2 * 3 == 5, \"math is broken\"); }", 1, 9,
			 "math is broken");
	expect_gen_error(g026, "begin { static_assert(pid, \"m\"); }", 1, 23,
			 "static_assert() needs a condition known at compile time (literals, "
			 "positional parameters and operators on them)");
	/* in a branch that never runs, nothing is asserted */
	CHECK(compiles("begin { if (0) { static_assert(0, \"dead\"); } }"));
	CHECK(compiles("begin { if (1) { } else { static_assert(0, \"dead\"); } }"));
	expect_gen_error(g026, "begin { if (pid) { static_assert(0, \"live\"); } }", 1, 20, "live");
}

static void test_fail(void)
{
	expect_gen_error(g026, "begin { fail(\"bad %d and %s\", 1 + 2, \"str\"); }", 1, 9,
			 "bad 3 and str");
	expect_gen_error(g026, "begin {\n  if (2 > 1) { fail(\"taken\"); } }", 2, 16, "taken");
	CHECK(compiles("begin { if (1 < 0) { fail(\"never\"); } print(1); }"));
	CHECK(compiles("begin { if (1) { print(1); } else { fail(\"never %d\", 5); } }"));
	/* bpftrace 0.26's words (semantic_analyser.cpp), at the call */
	expect_gen_error(g026, "begin { fail(\"pid %d\", pid); }", 1, 9,
			 "fail() arguments need to be literals");
	expect_gen_error(g026, "begin { fail(comm); }", 1, 9, "fail() arguments need to be literals");
	expect_gen_error(g026, "begin { fail(5); }", 1, 9,
			 "first argument to fail() must be a string literal");
	expect_gen_error(g017, "BEGIN { fail(\"x\"); }", 1, 9, "Unknown function: fail");
}

int main(void)
{
	unsetenv("SONDE_COMPAT");
	g026 = bt_generation_named("0.26");
	g017 = bt_generation_named("0.17");
	test_assert();
	test_static_assert();
	test_fail();
	return check_done("test_assert_bt26");
}
