/* bpftrace 0.26's named parameters: the command line's `-- --NAME[=VALUE]`
 * split from the positional ones (bt/cli_026.c), getopt()'s value and type
 * from its default (builtins/getopt.c), its errors (message and line:col),
 * and `$1` as a string when it is not a number.  On the real kernel:
 * tests/bt26 (other.named *) and tests/runtime/test_bt26_getopt.sh. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compile_check.h"
#include "bt/cli_bt.h"
#include "bt/cli_026.h"
#include "bt/generation_bt.h"
#include "compile/sema.h"

static const BtGeneration *g026;

static Compiled compile_named(const char *text, char **named, int nnamed, char **params,
			      int nparams)
{
	Options o = {.strlen_max = 64, .map_keys_max = 4096, .self_pid = 4242, .sema = g026->fe.sema,
		     .codegen = g026->fe.codegen, .named = named, .nnamed = nnamed, .params = params,
		     .nparams = nparams};
	return compile_parsed(text, g026->fe.parse, &o);
}

/* the tuple printed by the first statement: its element i */
static const Expr *elem(const Compiled *c, int i)
{
	const Expr *print = c->prog->probes[0]->body.v[0]->expr;
	return print->args.v[0]->args.v[i];
}

static void test_split(void)
{
	char *argv[] = {"p1", "--aa=20", "--bb", "p2", "--"};
	BtCli c = {.gen = g026};
	c.opt.params = argv;
	c.opt.nparams = 5;
	bt_split_named_params(&c);
	CHECK(c.opt.nparams == 3 && !strcmp(c.opt.params[0], "p1") && !strcmp(c.opt.params[1], "p2"));
	CHECK(!strcmp(c.opt.params[2], "--")); /* a bare "--" names nothing */
	CHECK(c.opt.nnamed == 2 && !strcmp(c.opt.named[0], "aa=20") && !strcmp(c.opt.named[1], "bb"));
	free(c.opt.named);
}

static void test_values(void)
{
	char *named[] = {"aa=0xffffffffffffffff", "bb=-10", "cc=False", "dd", "ee=bye", "aa=7"};
	char *params[] = {"pos1", "20"};
	Compiled r = compile_named("begin { print((getopt(\"aa\", 20), getopt(\"bb\", -1), "
				   "getopt(\"cc\", true), getopt(\"dd\"), getopt(\"ee\", \"hi\", \"what\"), "
				   "getopt(\"ff\", 3), getopt(\"gg\"), $1, $2)); }",
				   named, 6, params, 2);
	CHECK(r.sc != NULL);
	if (r.sc) {
		CHECK(elem(&r, 0)->kind == E_INT && elem(&r, 0)->ival == 7); /* the later --aa wins */
		CHECK(elem(&r, 1)->kind == E_UNOP && elem(&r, 1)->type->is_signed);
		CHECK(elem(&r, 2)->lit == LIT_BOOL && elem(&r, 2)->ival == 0);
		CHECK(elem(&r, 3)->lit == LIT_BOOL && elem(&r, 3)->ival == 1);
		CHECK(elem(&r, 4)->kind == E_STR && !strcmp(elem(&r, 4)->sval, "bye"));
		CHECK(elem(&r, 5)->kind == E_INT && elem(&r, 5)->ival == 3); /* not given: the default */
		CHECK(elem(&r, 6)->lit == LIT_BOOL && elem(&r, 6)->ival == 0);
		CHECK(elem(&r, 7)->kind == E_STR && elem(&r, 7)->type->kind == TY_STR);
		CHECK(elem(&r, 8)->type->kind == TY_INT);
	}
	compiled_free(&r);
}

/* prog with named parameters fails with msg at line:col */
static void expect_named_error(char **named, int n, const char *prog, int line, int col,
			       const char *msg)
{
	check_error_at(compile_named(prog, named, n, NULL, 0), prog, line, col, msg);
}

static void test_errors(void)
{
	char *bad[] = {"aa=x", "bb=maybe", "cc=1-2"};
	expect_named_error(bad, 3, "begin { print(getopt(\"aa\", 1)); }", 1, 15,
			   "named parameter 'aa' expects an integer, got 'x'");
	expect_named_error(bad, 3, "begin { print(getopt(\"cc\", 1)); }", 1, 15,
			   "named parameter 'cc' expects an integer, got '1-2'");
	expect_named_error(bad, 3, "begin { print(getopt(\"bb\")); }", 1, 15,
			   "named parameter 'bb' expects true, false, 1 or 0, got 'maybe'");
	expect_named_error(NULL, 0, "begin { $d = 1; print(getopt(\"aa\", $d)); }", 1, 36,
			   "getopt() default value must be a bool, integer or string literal");
	expect_named_error(NULL, 0, "begin { print(getopt(\"aa\", 1, \"x\", 2)); }", 1, 15,
			   "getopt() takes up to 3 arguments (4 provided)");
}

int main(void)
{
	unsetenv("SONDE_COMPAT");
	g026 = bt_generation_named("0.26");
	test_split();
	test_values();
	test_errors();
	return check_done("test_getopt_bt26");
}
