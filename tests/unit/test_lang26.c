/* bpftrace 0.26.1's language as the default generation parses and types
 * it, each rule beside 0.17's (which must refuse it or keep its own type):
 * bool, true and false; if/while/for without parentheses; let; `.` through
 * pointers. */
#include "compile_check.h"
#include "map_type_check.h"
#include "bt/generation_bt.h"
#include "compile/sema_hooks.h"

static const BtGeneration *g026, *g017;

/* ---- bool ---- */

static void test_bool(void)
{
	check_map_type(g026, "BEGIN { @ = true; }", "bool");
	check_map_type(g026, "BEGIN { @ = 1 < 2; }", "bool");
	check_map_type(g026, "BEGIN { @ = !5; }", "bool");
	check_map_type(g026, "BEGIN { @ = 1 && 0; }", "bool");
	check_map_type(g026, "BEGIN { @ = \"a\" == \"b\"; }", "bool");
	check_map_type(g026, "BEGIN { @ = strcontains(\"ab\", \"b\"); }", "bool");
	check_map_type(g026, "BEGIN { @ = nsecs ? true : false; }", "bool");
	check_map_type(g026, "BEGIN { @[true] = (1 > 0, 2); }", "tuple (bool, int64)");
	/* a bool in arithmetic or a cast is an integer again */
	check_map_type(g026, "BEGIN { @ = (1 < 2) + 1; }", "uint64");
	check_map_type(g026, "BEGIN { @ = (uint64)(1 < 2); }", "uint64");
	check_map_type(g026, "BEGIN { @ = nsecs ? true : 5; }", "uint64");
	/* 0.17: comparisons are unsigned integers, `true` a name (a C constant) */
	check_map_type(g017, "BEGIN { @ = 1 < 2; }", "uint64");
	check_map_type(g017, "BEGIN { @ = strcontains(\"ab\", \"b\"); }", "uint64");
	check_map_type(g017, "BEGIN { @ = true; }", "int64");
	Compiled c;
	/* true and false are values 1 and 0 */
	c = compile_gen(g026, "BEGIN { $t = true; $f = false; }");
	CHECK(c.prog && c.prog->probes[0]->body.v[0]->expr->ival == 1);
	CHECK(c.prog && c.prog->probes[0]->body.v[1]->expr->ival == 0);
	compiled_free(&c);
}

/* ---- if, while and for without parentheses ---- */

static void test_bare_conditions(void)
{
	const char *progs[] = {
		"BEGIN { if 1 { } else if $x == 2 { } }",
		"BEGIN { $i = 0; while $i < 3 { $i++; } }",
		"BEGIN { for $kv : @m { } for $i : 0..3 { } }",
		"BEGIN { if ($x) + 1 > 2 { } }",
	};
	for (size_t i = 0; i < sizeof(progs) / sizeof(*progs); i++) {
		CHECK(parses(g026, progs[i]));
		CHECK(!parses(g017, progs[i]));
	}
	/* with parentheses, as before; unroll keeps them */
	CHECK(parses(g026, "BEGIN { if (1) { } while (0) { } for ($kv : @m) { } }"));
	CHECK(!parses(g026, "BEGIN { unroll 2 { } }"));
	/* the condition is missing: `{ }` is read as a block's value (block_exprs) */
	Compiled c = compile_gen(g026, "BEGIN { if { } }");
	CHECK(!c.prog && c.err.loc.col == 14 && strstr(c.err.msg, "block used as a value"));
	compiled_free(&c);
}

/* ---- let ---- */

static void test_let(void)
{
	check_map_type(g026, "BEGIN { let $x = 5; @ = $x; }", "int64");
	check_map_type(g026, "BEGIN { let $x: uint16 = 5; @ = $x; }", "uint64"); /* widened */
	check_map_type(g026, "BEGIN { let $x: uint8; @ = $x; }", "uint64");
	check_map_type(g026, "BEGIN { let $x; $x = \"s\"; @ = $x; }", "string[2]");
	/* `let $x;` declares $x where it stands: assignments in inner blocks set it */
	Compiled c = compile_gen(g026, "BEGIN { let $x; if (1) { $x = 1; } print($x); }");
	CHECK(c.sc != NULL);
	if (c.sc) {
		const Stmt *let = c.prog->probes[0]->body.v[0];
		CHECK(let->kind == S_LET);
	}
	compiled_free(&c);
	CHECK(!parses(g026, "BEGIN { let x = 1; }"));
	CHECK(!parses(g026, "BEGIN { let $x: 5; }"));
	CHECK(!parses(g017, "BEGIN { let $x = 1; }"));
}

/* ---- block scoping: a variable lives in the block that makes it ---- */

static void expect_error_026(const char *text, int col, const char *msg)
{
	check_error_col(compile_gen(g026, text), text, col, msg);
}

/* the error's context: the next message in the list, at col */
static void expect_context_026(const char *text, int col, const char *msg)
{
	Compiled c = compile_gen(g026, text);
	const Error *n = c.err.next;
	if (c.sc || !n || n->loc.col != col || strcmp(n->msg, msg)) {
		check_failed++;
		fprintf(stderr, "FAIL: %s\n  context got:  %d: %s\n  want: %d: %s\n", text,
			n ? n->loc.col : 0, n ? n->msg : "(none)", col, msg);
	} else {
		check_passed++;
	}
	compiled_free(&c);
}

/* a shadowing error points at where the name came from, as 0.26 does */
static void test_shadow_context(void)
{
	const char *loop = "Loop declaration shadows existing variable: $i";
	expect_context_026("BEGIN { let $x = 1; { let $x = 2 } }", 9, "This is the initial declaration.");
	expect_context_026("BEGIN { let $x; if (1) { let $x = 2 } }", 9, "This is the initial declaration.");
	expect_context_026("BEGIN { $x = 1; { let $x = 2 } }", 9, "This is the initial assignment.");
	expect_context_026("BEGIN { for ($i : 1..3) { let $i = 1; } }", 14, "This is the loop variable.");
	expect_error_026("BEGIN { $i = 5; for ($i : 1..10) { print($i) } }", 22, loop);
	expect_context_026("BEGIN { $i = 5; for ($i : 1..10) { print($i) } }", 9,
			   "This is the initial assignment.");
}

static void test_block_scoping(void)
{
	const char *undef = "Undefined or undeclared variable: $x";
	const char *shadow = "Variable $x was already declared. Variable shadowing is not allowed.";
	expect_error_026("BEGIN { if (0) { $x = \"hello\"; } print(($x)); }", 41, undef);
	expect_error_026("BEGIN { if (0) { $x = 1; } else { $x = 2; } print($x); }", 51, undef);
	expect_error_026("BEGIN { { $x = 1; } @ = $x; }", 25, undef);
	expect_error_026("BEGIN { $y = { $x = 1; $x }; @ = $x; }", 34, undef);
	expect_error_026("BEGIN { let $x; if (0) { let $x = \"hello\"; } }", 26, shadow);
	expect_error_026("BEGIN { $x = 1; { let $x = 2 } }", 19, shadow);
	expect_error_026("BEGIN { let $x = 1; let $x = 2 }", 21, shadow);
	/* sibling blocks: one name, two variables (of two types) */
	check_map_type(g026, "BEGIN { if (1) { $x = 1; } if (1) { $x = \"s\"; @ = $x; } }", "string[2]");
	/* declared before the block: set inside, read after */
	check_map_type(g026, "BEGIN { let $x; if (0) { $x = 3; } @ = $x; }", "int64");
	/* 0.17: the whole probe */
	check_map_type(g017, "BEGIN { if (1) { $x = 5; } @ = $x; }", "int64");
}

/* ---- typeof: a type name, or an expression's type ---- */

static void test_typeof(void)
{
	check_map_type(g026, "BEGIN { $u = (uint32)5; @ = (typeof($u))1; }", "uint64");
	check_map_type(g026, "BEGIN { $s = (int8)5; @ = (typeof($s))1; }", "int64");
	check_map_type(g026, "BEGIN { $s = (int8)5; let $x: typeof($s) = 1; @ = $x; }", "int64");
	check_map_type(g026, "struct Foo { int m; } BEGIN { $p = (struct Foo *)0; @ = (typeof($p))8; }",
		       "struct Foo *");
	check_map_type(g026, "BEGIN { let $x: typeof(uint16) = 1; @ = $x; }", "uint64");
	check_map_type(g026, "typedef int myint; BEGIN { let $x: typeof(myint) = 1; @ = $x; }", "int64");
	check_map_type(g026, "BEGIN { let $x: typeof(struct Foo *) = 0; @ = $x; }", "");
	/* a macro's parameter: the argument's type */
	check_map_type(g026, "macro add(x) { let $y: typeof(x); $y = 1; x + $y } "
		       "BEGIN { @ = add((uint32)1); }", "uint64");
	/* strings, tuples and records: tests/unit/test_comptime_bt26.c */
	check_map_type(g026, "BEGIN { let $x: typeof(comm); @ = $x; }", "string[16]");
	CHECK(!parses(g017, "BEGIN { $x = (typeof(1))1; }"));
}

/* ---- `.` through pointers, `->` its alias ---- */

static void test_dot_deref(void)
{
	const char *dot = "struct Foo { int m; long n; } BEGIN { $p = (struct Foo *)0; @ = $p.n; }";
	const char *arrow = "struct Foo { int m; long n; } BEGIN { $p = (struct Foo *)0; @ = $p->n; }";
	const char *rec_arrow = "struct Foo { int m; long n; } BEGIN { $p = (struct Foo *)0; "
				"$s = *$p; @ = $s->n; }";
	check_map_type(g026, dot, "int64");
	check_map_type(g026, arrow, "int64");
	check_map_type(g026, rec_arrow, "int64");
	/* 0.17: `.` needs a record, `->` a pointer */
	check_map_type(g017, dot, "");
	check_map_type(g017, rec_arrow, "");
	check_map_type(g017, arrow, "int64");
	/* the read goes through the pointer: the same code as `->` */
	Compiled a = compile_gen(g026, dot), b = compile_gen(g026, arrow);
	CHECK(a.sc && b.sc);
	if (a.sc && b.sc) {
		const ProgCode *pa = a.sc->progs.v[0], *pb = b.sc->progs.v[0];
		CHECK(pa->ninsns == pb->ninsns &&
		      !memcmp(pa->insns, pb->insns, sizeof(pa->insns[0]) * (size_t)pa->ninsns));
	}
	compiled_free(&a);
	compiled_free(&b);
}

/* ---- map declarations ---- */

static void test_map_decls(void)
{
	Compiled c = compile_gen(g026, "let @a = lruhash(5); let @b = percpuhash(7); "
				 "BEGIN { @a[1] = 2; @b[1] = count(); }");
	CHECK(c.sc && c.sc->maps.n == 2);
	if (c.sc && c.sc->maps.n == 2) {
		const MapInfo *a = c.sc->maps.v[0], *b = c.sc->maps.v[1];
		CHECK(a->lru && !a->percpu && a->max_entries == 5);
		CHECK(!b->lru && b->percpu && b->max_entries == 7);
	}
	compiled_free(&c);
	c = compile_gen(g026, "let @u = hash(3); BEGIN { @x = 1; }");
	CHECK(c.sc && c.sc->warnings.n == 1 && !strcmp(c.sc->warnings.v[0].msg, "Unused map: @u"));
	compiled_free(&c);
	c = compile_gen(g026, "let @a = tree(3); BEGIN { @a = 1; }");
	CHECK(!c.sc && !strncmp(c.err.msg, "Invalid bpf map type: tree", 26));
	compiled_free(&c);
	c = compile_gen(g026, "let @a = percpuhash(3); BEGIN { @a[1] = 1; }");
	CHECK(!c.sc && strstr(c.err.msg, "Incompatible map types. Type from declaration: percpuhash"));
	compiled_free(&c);
	CHECK(!parses(g026, "BEGIN { } let @a = hash(3);"));
	CHECK(!parses(g026, "let @a = hash(x); BEGIN { }"));
	CHECK(!parses(g017, "let @a = hash(3); BEGIN { }"));
}

int main(void)
{
	g026 = bt_generation_named("0.26.1");
	g017 = bt_generation_named("0.17");
	test_bool();
	test_bare_conditions();
	test_let();
	test_typeof();
	test_block_scoping();
	test_shadow_context();
	test_dot_deref();
	test_map_decls();
	printf("lang26: %d passed, %d failed\n", check_passed, check_failed);
	return check_failed != 0;
}
