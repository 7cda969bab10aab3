/* bpftrace 0.26's compile-time questions: typeof(X) of a string, tuple or
 * record as the type of a `let` or a cast; `if comptime (c)` and
 * `comptime c`, whose condition is known while compiling and whose other
 * branch is never checked nor compiled; typeinfo(X), the record
 * (btf_id, base_ty, full_ty) of X's type.  0.17 has none of them. */
#include "compile_check.h"
#include "map_type_check.h"
#include "bt/generation_bt.h"

static const BtGeneration *g026, *g017;

/* `text` fails with `msg` at column `col` */
static void check_error(const char *text, int col, const char *msg)
{
	Compiled c = compile_gen(g026, text);
	if (c.sc || c.err.loc.col != col || strcmp(c.err.msg, msg)) {
		check_failed++;
		fprintf(stderr, "FAIL: %s\n  got: %d: %s\n  want: %d: %s\n", text, c.err.loc.col,
			c.err.set ? c.err.msg : "(compiled)", col, msg);
	} else {
		check_passed++;
	}
	compiled_free(&c);
}

static void test_typeof_values(void)
{
	/* strings widen as a variable's value does; no value: the type's zero */
	check_map_type(g026, "BEGIN { $s = \"abc\"; let $t: typeof($s) = \"hello\"; @ = $t; }",
		       "string[6]");
	check_map_type(g026, "BEGIN { $s = \"abcdef\"; let $t: typeof($s); @ = $t; }", "string[7]");
	check_map_type(g026, "BEGIN { let $t: typeof(comm); @ = $t; }", "string[16]");
	check_map_type(g026, "BEGIN { $s = (1, \"a\"); let $t: typeof($s); @ = $t; }",
		       "tuple (int64, string[2])");
	check_map_type(g026, "BEGIN { $s = (a = 1, b = \"x\"); let $t: typeof($s) = (b = \"yy\", a = 2); "
		       "@ = $t; }", "record (a=int64, b=string[3])");
	check_map_type(g026, "BEGIN { $s = \"abc\"; @ = (typeof($s))\"x\"; }", "string[4]");
	check_map_type(g026, "macro id(x) { let $y: typeof(x) = x; $y } BEGIN { @ = id((1, 2)); }",
		       "tuple (int64, int64)");
	check_error("BEGIN { $s = \"a\"; let $t: typeof($s) = 1; }", 40,
		    "Cannot cast from \"int64\" to \"string[2]\"");
	check_error("BEGIN { $s = (1, 2); let $t: typeof($s) = (1, 2, 3); }", 43,
		    "Cannot cast from \"(int64,int64,int64)\" to \"(int64,int64)\"");
}

static void test_comptime_if(void)
{
	/* the branch not taken may give a map another type: it is not checked */
	check_map_type(g026, "BEGIN { if comptime (1 == 1) { @ = 1; } else { @ = \"s\"; @ = 2; } }", "int64");
	check_map_type(g026, "BEGIN { if comptime (1 == 2) { @ = 1; } else { @ = \"s\"; } }", "string[2]");
	check_map_type(g026, "BEGIN { if comptime 0 { @ = 1; } else if comptime 1 { @ = \"ab\"; } "
		       "else { @ = (1, 2); } }", "string[3]");
	check_map_type(g026, "BEGIN { $a = \"x\"; if comptime (typeinfo($a).base_ty == \"string\") "
		       "{ @ = $a; } else { @ = 1; } }", "string[2]");
	check_map_type(g026, "BEGIN { $a = (int16)1; if comptime (typeinfo($a).full_ty != \"int16\") "
		       "{ @ = \"no\"; } else { @ = 1; } }", "int64");
	/* is_str() and its kind are known: a macro that picks by type */
	const char *m = "macro f(x) { if comptime is_str(x) { \"str\" } else { x + 1 } } ";
	char text[256];
	snprintf(text, sizeof(text), "%sBEGIN { @ = f(\"a\"); }", m);
	check_map_type(g026, text, "string[4]");
	snprintf(text, sizeof(text), "%sBEGIN { @ = f(3); }", m);
	check_map_type(g026, text, "int64");
	check_map_type(g026, "BEGIN { @ = comptime (2 + 3) * 2; }", "int64");
	check_error("BEGIN { $a = 1; if comptime ($a == 1) { } }", 33,
		    "Unable to resolve comptime expression");
	check_error("BEGIN { @ = comptime nsecs; }", 22, "Unable to resolve comptime expression");
	CHECK(!parses(g017, "BEGIN { if comptime (1) { } }"));
}

/* the if a comptime condition folds away leaves no branch behind */
static void test_comptime_code(void)
{
	Compiled a = compile_gen(g026, "BEGIN { if comptime (1 < 2) { @ = 7; } else { @ = 8; } }");
	Compiled b = compile_gen(g026, "BEGIN { @ = 7; }");
	CHECK(a.sc && b.sc);
	if (a.sc && b.sc) {
		const ProgCode *pa = a.sc->progs.v[0], *pb = b.sc->progs.v[0];
		CHECK(pa->ninsns == pb->ninsns &&
		      !memcmp(pa->insns, pb->insns, sizeof(pa->insns[0]) * (size_t)pa->ninsns));
	}
	compiled_free(&a);
	compiled_free(&b);
}

static void test_typeinfo(void)
{
	check_map_type(g026, "BEGIN { $a = (uint8)1; @ = typeinfo($a); }",
		       "record (btf_id=int64, base_ty=string[4], full_ty=string[6])");
	check_map_type(g026, "BEGIN { @ = typeinfo((1, \"ab\")).full_ty; }", "string[18]");
	check_map_type(g026, "BEGIN { @ = typeinfo((a = 1, b = true)).full_ty; }", "string[33]");
	check_map_type(g026, "BEGIN { @ = typeinfo(curtask).base_ty; }", "string[8]");
	check_map_type(g026, "BEGIN { if comptime (typeinfo(curtask).full_ty == \"struct task_struct *\") "
		       "{ @ = 1; } }", "int64");
	check_map_type(g026, "BEGIN { if comptime (typeinfo(\"abc\").full_ty == \"string[4]\") { @ = 1; } }",
		       "int64");
	Compiled c = compile_gen(g017, "BEGIN { @ = typeinfo(1); }");
	CHECK(!c.sc);
	compiled_free(&c);
}

int main(void)
{
	g026 = bt_generation_named("0.26.1");
	g017 = bt_generation_named("0.17");
	test_typeof_values();
	test_comptime_if();
	test_comptime_code();
	test_typeinfo();
	printf("comptime_bt26: %d passed, %d failed\n", check_passed, check_failed);
	return check_failed != 0;
}
