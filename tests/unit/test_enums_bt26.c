/* bpftrace 0.26 prints a value of a C enum's type by its enumerator's name
 * (SemaHooks.enum_names): which values sema marks so (an enumerator, a
 * variable holding one, a cast to the enum; not arithmetic's result), none
 * under 0.17, printf's %s taking them and nothing else of integers, and the
 * enumerators a script's enum keeps.  Their output on the real kernel:
 * tests/runtime/cases/bt26_enums.bt. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compile_check.h"
#include "bt/generation_bt.h"
#include "compile/sema.h"

static const BtGeneration *g026, *g017;

static const Type *stmt_type(const Compiled *c, int i)
{
	const Stmt *st = c->prog->probes[0]->body.v[i];
	return st->expr ? st->expr->type : NULL;
}

static bool named(const Type *t, const char *first)
{
	return t && t->kind == TY_INT && t->enum_named && t->enumerators &&
	       !strcmp(t->enumerators->name, first);
}

static void test_marked(void)
{
	Compiled r = compile_as(g026, "enum E { A = 1, B, C = 10 }; begin { A; $x = B; $x; "
				 "(enum E)2; A + 1; -A; 5; }");
	CHECK(r.sc);
	if (r.sc) {
		CHECK(named(stmt_type(&r, 0), "A"));
		CHECK(named(stmt_type(&r, 2), "A")); /* $x keeps B's enum */
		CHECK(named(stmt_type(&r, 3), "A"));
		CHECK(!stmt_type(&r, 4)->enum_named); /* arithmetic: a number */
		CHECK(!stmt_type(&r, 5)->enum_named);
		CHECK(!stmt_type(&r, 6)->enum_named);
		const Type *t = stmt_type(&r, 0);
		CHECK(!strcmp(type_enum_name(t, 2), "B") && !strcmp(type_enum_name(t, 10), "C"));
		CHECK(type_enum_name(t, 3) == NULL);
	}
	compiled_free(&r);
	r = compile_as(g017, "enum E { A = 1 }; BEGIN { A; $x = A; $x; }");
	CHECK(r.sc && !stmt_type(&r, 0)->enum_named && !stmt_type(&r, 2)->enum_named);
	compiled_free(&r);
}

/* printf's %s: an enum's value, not any integer */
static void test_format(void)
{
	Compiled r = compile_as(g026, "enum E { A = 1 }; begin { printf(\"%s %d %-4s\", A, A, "
				 "(enum E)3); }");
	CHECK(r.sc);
	compiled_free(&r);
	const char *want = "printf: %s specifier expects a value of type string (integer supplied)";
	r = compile_as(g026, "enum E { A = 1 };\nbegin { printf(\"%s\", A + 1); }");
	CHECK(!r.sc && r.err.set && !strcmp(r.err.msg, want) && r.err.loc.line == 2 &&
	      r.err.loc.col == 9);
	compiled_free(&r);
	r = compile_as(g026, "begin { printf(\"%s\", 1); }");
	CHECK(!r.sc && r.err.set && !strcmp(r.err.msg, want));
	compiled_free(&r);
	r = compile_as(g017, "enum E { A = 1 }; BEGIN { printf(\"%s\", A); }");
	CHECK(!r.sc && r.err.set && !strcmp(r.err.msg, want));
	compiled_free(&r);
}

int main(void)
{
	unsetenv("SONDE_COMPAT");
	g026 = bt_generation_named("0.26");
	g017 = bt_generation_named("0.17");
	test_marked();
	test_format();
	return check_done("test_enums_bt26");
}
