/* bpftrace 0.26's blocks and `if` as expressions, `a ?: b` and `_ = e`
 * (lang/parse_block.c; ParseOpts.block_exprs, elvis, discard_assign): what
 * they parse to, their types, their errors, and 0.17's refusal of each.
 * On the real kernel: tests/runtime/cases/bt26_block_exprs.bt. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compile_check.h"
#include "bt/generation_bt.h"

static const BtGeneration *g026, *g017;

static void expect_type(const char *prog, const char *want)
{
	Compiled c = compile_as(g026, prog);
	char got[128] = "";
	if (c.sc && c.sc->maps.n)
		type_name(c.sc->maps.v[0]->val, got, sizeof(got));
	if (strcmp(got, want)) {
		check_failed++;
		fprintf(stderr, "FAIL: %s\n  got: %s (%s)\n  want: %s\n", prog, got,
			c.err.set ? c.err.msg : "no error", want);
	} else {
		check_passed++;
	}
	compiled_free(&c);
}

/* prog fails in generation g with msg at column col */
static void expect_err(const BtGeneration *g, const char *prog, int col, const char *msg)
{
	check_error_col(compile_as(g, prog), prog, col, msg);
}

/* the first statement's value (its assignment's right side) */
static const Expr *first_value(const Compiled *c)
{
	return c->prog ? c->prog->probes[0]->body.v[0]->expr : NULL;
}

static void test_blocks(void)
{
	expect_type("begin { @ = { $x = 2; $x + 1 }; }", "int64");
	expect_type("begin { @ = { let $s = \"ab\"; $s }; }", "string[3]");
	Compiled c = compile_as(g026, "begin { $a = { $x = 1; $x }; $b = { 5 }; }");
	const Expr *e = first_value(&c);
	CHECK(e && e->kind == E_BLOCK && e->block.n == 1 && e->a->kind == E_VAR);
	/* `{ v }` is v itself */
	CHECK(c.prog && c.prog->probes[0]->body.v[1]->expr->kind == E_INT);
	compiled_free(&c);
	expect_err(g026, "begin { $a = { $x = 1; }; }", 24,
		   "a block used as a value must end with an expression, without ';'");
	expect_err(g026, "begin { $a = { 1; }; }", 19,
		   "a block used as a value must end with an expression, without ';'");
	expect_err(g026, "begin { $a = { }; }", 16,
		   "a block used as a value must end with an expression, without ';'");
	expect_err(g017, "begin { $a = { 1 }; }", 14, "syntax error, unexpected {\nhint: expecting an expression");
}

static void test_if_exprs(void)
{
	expect_type("begin { @ = if nsecs { \"a\" } else { \"bcd\" }; }", "string[4]");
	expect_type("begin { @ = if nsecs { 1 } else if pid { 2 } else { 3 }; }", "int64");
	/* an if whose arms end with values is a block's value too */
	expect_type("begin { @ = { if nsecs { 1 } else { $y = 2; $y } }; }", "int64");
	Compiled c = compile_as(g026, "begin { $a = if nsecs { 1 } else { $y = 2; $y }; }");
	const Expr *e = first_value(&c);
	CHECK(e && e->kind == E_TERNARY && e->b->kind == E_INT && e->c->kind == E_BLOCK);
	compiled_free(&c);
	const char *arms = "an if used as a value needs an else, and each arm must end with "
			   "an expression, without ';'";
	expect_err(g026, "begin { $a = if nsecs { 1 }; }", 14, arms);
	expect_err(g026, "begin { $a = if nsecs { 1; } else { 2 }; }", 14, arms);
	expect_err(g026, "begin { $a = if nsecs { 1 } else { \"s\" }; }", 17,
		   "Ternary operator must return the same type: have 'integer' and 'string'");
	expect_err(g017, "begin { $a = if (nsecs) { 1 } else { 2 }; }", 14,
		   "syntax error, unexpected if\nhint: expecting an expression");
}

/* other.ternary_buf: buffers as ?:'s (and so an if's) arms, 0.26 only */
static void test_ternary_buffers(void)
{
	expect_type("begin { @ = nsecs ? buf(\"hello\", 5) : buf(\"bye\", 3); }", "buffer[8]");
	expect_err(g017, "BEGIN { $a = nsecs ? buf(\"hi\", 2) : buf(\"bye\", 3); }", 14,
		   "Ternary return type unsupported buffer");
}

static void test_elvis(void)
{
	expect_type("begin { @ = nsecs ?: 5; }", "uint64");
	Compiled c = compile_as(g026, "begin { $a = $x ?: 10; }");
	const Expr *e = first_value(&c);
	/* the left side is the true arm, one node: evaluated once */
	CHECK(e && e->kind == E_TERNARY && e->b == e->a);
	compiled_free(&c);
	expect_err(g017, "begin { $a = 1 ?: 10; }", 17, "syntax error, unexpected :\nhint: expecting an expression");
}

static void test_discard(void)
{
	Compiled c = compile_as(g026, "begin { _ = 1 + 2; _ = { printf(\"x\"); 1 }; }");
	const Stmt *st = c.prog ? c.prog->probes[0]->body.v[0] : NULL;
	CHECK(c.sc && st && st->kind == S_EXPR && st->expr->kind == E_BINOP);
	compiled_free(&c);
	expect_err(g026, "begin { _ += 1; }", 11, "can only assign to a map or a variable");
	expect_err(g017, "begin { _ = 1; }", 11, "can only assign to a map or a variable");
}

int main(void)
{
	unsetenv("SONDE_COMPAT");
	g026 = bt_generation_named("0.26");
	g017 = bt_generation_named("0.17");
	test_blocks();
	test_if_exprs();
	test_ternary_buffers();
	test_elvis();
	test_discard();
	return check_done("test_blocks_bt26");
}
