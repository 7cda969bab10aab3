/* bpftrace 0.26's `&$x` (SemaHooks.addr_of_vars, compile/sema_ctype.c): a
 * pointer to the variable's value, which `*` reads back whole; 0.17 refuses
 * `&`; a pointer's `++` keeps its type (both generations); print() of a
 * pointer (SemaHooks.print_pointers), not of the context.  On the real
 * kernel: tests/runtime/cases/bt26_addr_of.bt. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compile_check.h"
#include "syms_check.h"
#include "bt/generation_bt.h"

static const BtGeneration *g026, *g017;

/* the type names of the first two maps' values once prog compiles */
static void expect_types(const char *prog, const char *want0, const char *want1)
{
	Compiled c = compile_as(g026, prog);
	char t0[128] = "", t1[128] = "";
	if (c.sc && c.sc->maps.n > 1) {
		type_name(c.sc->maps.v[0]->val, t0, sizeof(t0));
		type_name(c.sc->maps.v[1]->val, t1, sizeof(t1));
	}
	if (strcmp(t0, want0) || strcmp(t1, want1)) {
		check_failed++;
		fprintf(stderr, "FAIL: %s\n  got: %s, %s (%s)\n  want: %s, %s\n", prog, t0, t1,
			c.err.set ? c.err.msg : "no error", want0, want1);
	} else {
		check_passed++;
	}
	compiled_free(&c);
}

static void expect_err(const BtGeneration *g, const char *prog, int col, const char *msg)
{
	check_error_col(compile_as(g, prog), prog, col, msg);
}

static void test_types(void)
{
	expect_types("begin { $a = 1; @p = &$a; @v = *@p; }", "int64 *", "int64");
	expect_types("begin { $t = (1, \"ab\"); @p = &$t; @v = *&$t; }", "tuple (int64, string[3]) *",
		     "tuple (int64, string[3])");
	/* a C type read through the variable's bytes */
	expect_types("struct S { int a; int b; } begin { $x = (uint64)5; @p = &$x; "
		     "@v = ((struct S *)&$x)->a; }", "uint64 *", "int64");
}

/* ($c++).b: pointers.Pointer walk through struct */
static void test_incdec_ptr(void)
{
	expect_types("struct C { int a; long b; } begin { $c = (struct C *)0; @p = $c++; "
		     "@v = ($c++).b; }", "struct C *", "int64");
	expect_types("begin { $i = 1; @p = $i++; @v = --$i; }", "int64", "int64");
}

static void test_errors(void)
{
	expect_err(g026, "begin { @m = 1; $p = &@m; }", 22,
		   "'&' takes the address of a variable ($x) only");
	expect_err(g026, "begin { $p = &1; }", 14, "'&' takes the address of a variable ($x) only");
	expect_err(g017, "BEGIN { $a = 1; $p = &$a; }", 22,
		   "the address-of operator '&' is not supported");
}

/* print() of a pointer prints its address under 0.26; 0.17 refuses it */
static void test_print_pointer(void)
{
	Compiled c = compile_as(g026, "begin { $a = 1; print(&$a); print((int8 *)0x32); }");
	CHECK(c.sc != NULL);
	compiled_free(&c);
	expect_error_as(g026, &test_syms, "profile:hz:99 { print(ctx) }", 1, 17,
			"(ctx) struct bpf_perf_event_data * type passed to print() is not printable");
	expect_err(g017, "BEGIN { print((int8 *)0x32); }", 9,
		   "int8 * type passed to print() is not printable");
}

int main(void)
{
	unsetenv("SONDE_COMPAT");
	g026 = bt_generation_named("0.26");
	g017 = bt_generation_named("0.17");
	test_types();
	test_incdec_ptr();
	test_errors();
	test_print_pointer();
	return check_done("test_addr_bt26");
}
