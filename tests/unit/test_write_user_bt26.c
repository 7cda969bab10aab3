/* bpftrace 0.26's write_user(dst, src, len) (src/builtins/write_user.c):
 * only with --unsafe, its type, its errors (message and line:col), the
 * helper it calls, and 0.17 without it.  The kernel here refuses the
 * helper (locked down): tests/runtime/test_bt26_write_user.sh checks the
 * words sonde says so in, and the write itself where the kernel allows it. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compile_check.h"
#include "bt/generation_bt.h"
#include "compile/builtin.h"
#include "runtime/frontend.h"
#include "syms_check.h"

static const BtGeneration *g026, *g017;

static Compiled compile_unsafe(const BtGeneration *g, const char *text, bool unsafe)
{
	Options o = {.strlen_max = 64, .map_keys_max = 4096, .self_pid = 4242, .unsafe = unsafe,
		     .sym = &test_syms};
	return compile_as_opts(g, text, &o);
}

static void expect(const BtGeneration *g, bool unsafe, const char *text, int col, const char *msg)
{
	check_error_col(compile_unsafe(g, text, unsafe), text, col, msg);
}

static void test_write_user(void)
{
	Compiled r = compile_unsafe(g026, "begin { $s = \"abc\"; $x = 7; print(write_user(0x1000, $s, 4)); "
				  "write_user(0x2000, $x, $x); }", true);
	CHECK(r.sc != NULL);
	if (r.sc) {
		const Expr *c = r.prog->probes[0]->body.v[2]->expr->args.v[0];
		CHECK(c->type->kind == TY_INT && c->type->is_bool);
		CHECK(helper_calls(r.sc, BPF_FUNC_probe_write_user) == 2);
	} else {
		fprintf(stderr, "  %s\n", r.err.msg);
	}
	compiled_free(&r);
	expect(g026, false, "begin { $x = 1; write_user(0, $x, 1); }", 17,
	       "write_user() is an unsafe function being used in safe mode\nhint: --unsafe allows it");
	expect(g026, true, "begin { $x = 1; write_user(0, $x, 9); }", 35,
	       "write_user() length 9 is outside the 8 bytes of its source");
	expect(g026, true, "begin { write_user(0, curtask, 8); }", 23,
	       "write_user() copies a value of the program (a string, buffer, array, record or "
	       "integer), not the memory a pointer points to (struct task_struct *): read it into a "
	       "variable first");
	expect(g026, true, "begin { write_user(\"x\", \"abc\", 4); }", 20,
	       "write_user() argument 1 must be an integer");
	expect(g017, true, "BEGIN { $x = 1; write_user(0, $x, 1); }", 17, "Unknown function: write_user");
}

int main(void)
{
	unsetenv("SONDE_COMPAT");
	g026 = bt_generation_named("0.26");
	g017 = bt_generation_named("0.17");
	test_write_user();
	return check_done("test_write_user_bt26");
}
