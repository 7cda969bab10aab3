/* bpftrace 0.26.1's macros: their parse (lang/parse_macro.c), their
 * expansion at each call (lang/macro_expand.c: parameters bound, the
 * body's own variables renamed, a value with statements a block
 * expression in the call's place), 0.26's errors at their place, and
 * 0.17, which has no macros. */
#include "compile_check.h"
#include "syms_check.h"
#include "bt/generation_bt.h"
#include "lang/parse_opts.h"

static const BtGeneration *g026, *g017;

static Program *parse_gen(const BtGeneration *g, const char *text, Error *err)
{
	Source src = {"test", text};
	memset(err, 0, sizeof(*err));
	return parse_program_opts(&src, g->fe.parse, err);
}

/* the name of statement i's target (S_ASSIGN) in the first probe */
static const char *target_name(const Program *p, int i)
{
	const StmtList *b = &p->probes[0]->body;
	return i < b->n && b->v[i]->target ? b->v[i]->target->name : "(none)";
}

static void test_parse(void)
{
	Error err;
	Program *p = parse_gen(g026, "macro one() { 1 }\nmacro f($a, @b, c) { $a += c; @b = 1; }\n"
				     "macro g { print(1); }\nBEGIN { }", &err);
	CHECK(p != NULL);
	if (!p)
		return;
	CHECK(p->nmacros == 3);
	CHECK_STR(p->macros[0].name, "one");
	CHECK(p->macros[0].nparams == 0 && p->macros[0].has_value);
	CHECK(p->macros[1].nparams == 3 && !p->macros[1].has_value);
	CHECK(p->macros[1].params[0].kind == MP_VAR && p->macros[1].params[1].kind == MP_MAP &&
	      p->macros[1].params[2].kind == MP_EXPR);
	CHECK_STR(p->macros[1].params[1].name, "b");
	CHECK(p->macros[2].nparams == 0 && !p->macros[2].has_value);
	program_free(p);
}

static void test_expand(void)
{
	Error err;
	/* the body's $y is its own; the value is a block of the body's
	 * statements, in the call's place */
	Program *p = parse_gen(g026, "macro inc(x) { $y = x + 1; $y } BEGIN { $y = 2; $z = inc(5); }",
			       &err);
	CHECK(p && p->probes[0]->body.n == 2);
	if (p) {
		CHECK_STR(target_name(p, 0), "y");
		CHECK_STR(target_name(p, 1), "z");
		const Expr *v = p->probes[0]->body.v[1]->expr;
		CHECK(v->kind == E_BLOCK && v->block.n == 1);
		if (v->kind == E_BLOCK && v->block.n == 1) {
			CHECK_STR(v->block.v[0]->target->name, "$inc_y_1");
			CHECK_STR(v->a->name, "$inc_y_1");
		}
		program_free(p);
	}
	/* behind && the block is the right operand: it runs only when the
	 * left one is true */
	p = parse_gen(g026, "macro inc($x) { $x += 1; $x } BEGIN { $a = 0; if (0 && inc($a)) { } }",
		      &err);
	CHECK(p && p->probes[0]->body.n == 2);
	if (p) {
		const Expr *c = p->probes[0]->body.v[1]->expr;
		CHECK(c->kind == E_BINOP && c->b->kind == E_BLOCK);
		program_free(p);
	}
	/* $x and @x name the caller's variable and map */
	p = parse_gen(g026, "macro inc($x) { $x += 1; } BEGIN { $a = 1; inc($a); inc($a); }", &err);
	CHECK(p && p->probes[0]->body.n == 3);
	if (p) {
		CHECK_STR(target_name(p, 1), "a");
		CHECK_STR(target_name(p, 2), "a");
		program_free(p);
	}
	p = parse_gen(g026, "macro set(@x) { @x[1] = 2; } BEGIN { set(@a); }", &err);
	CHECK(p && p->probes[0]->body.n == 1);
	if (p) {
		CHECK_STR(target_name(p, 0), "a");
		program_free(p);
	}
	/* an identifier parameter is the argument's expression, before a
	 * macro of that name */
	p = parse_gen(g026, "macro add() { 2 } macro ident(add) { add } BEGIN { @ = ident(1); }",
		      &err);
	CHECK(p && p->probes[0]->body.v[0]->expr->kind == E_INT &&
	      p->probes[0]->body.v[0]->expr->ival == 1);
	program_free(p);
}

static void expect_parse_error(const char *text, int line, int col, const char *msg)
{
	Error err;
	Program *p = parse_gen(g026, text, &err);
	if (p || !err.set || strcmp(err.msg, msg) || err.loc.line != line || err.loc.col != col) {
		check_failed++;
		fprintf(stderr, "FAIL: %s\n  got:  %d:%d: %s\n  want: %d:%d: %s\n", text,
			err.loc.line, err.loc.col, err.set ? err.msg : "(no error)", line, col, msg);
	} else {
		check_passed++;
	}
	program_free(p);
}

static void test_errors(void)
{
	expect_parse_error("macro f() { @x = 1; } BEGIN { f(); }", 1, 13,
			   "Unhygienic access to map: @x. Maps must be passed into the macro as "
			   "arguments.");
	expect_parse_error("macro f(x) { x }\nBEGIN { @ = f(1, 2); }", 2, 13,
			   "Call to macro has wrong number arguments. Expected: 1 but got 2");
	expect_parse_error("macro a() { b() } macro b() { a() } BEGIN { a(); }", 1, 31,
			   "Recursive macro call detected. Call chain: a > b > a");
	expect_parse_error("macro f() { 1; } BEGIN { $x = f(); }", 1, 31,
			   "Macro 'f' expanded to a block instead of a block expression. Try "
			   "removing the semicolon from the end of the last statement in the macro "
			   "body.");
	expect_parse_error("macro f($x) { $x } BEGIN { @a = 1; f(@a); }", 1, 36,
			   "Mismatched arg to macro call. Macro expects a variable for arg $x but got "
			   "a map.");
	expect_parse_error("macro f(@x) { @x } BEGIN { f(1 + 1); }", 1, 28,
			   "Mismatched arg to macro call. Macro expects a map for arg @x but got an "
			   "expression.");
	expect_parse_error("macro f($x, $x) { 1 } BEGIN { f(1, 2); }", 1, 13,
			   "Variable for macro argument has already been used: $x");
	expect_parse_error("macro f() { 1 } macro f() { 2 } BEGIN { }", 1, 23,
			   "Redifinition of macro: f");
}

/* what diag_print prints for c's error, the program's own table of
 * macro calls in hand */
static char *printed(Compiled *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	diag_print(f, &c->prog->src, &c->err);
	fclose(f);
	return buf;
}

/* an error in a macro's body is at the body's place, then each call it
 * was expanded from, innermost first (0.26's "ERROR: expanded from") */
static void test_expanded_from(void)
{
	Compiled c = compile_as(g026, "macro bad(x) { $y = \"a\" + x; $y }\n"
				      "macro outer() { bad(2) }\nBEGIN { $a = outer(); }");
	CHECK(c.sc == NULL && c.err.set && c.err.loc.line == 1 && c.err.loc.exp > 0);
	char *out = c.prog ? printed(&c) : NULL;
	CHECK_STR(out ? out : "",
		  "test:1:21-24: ERROR: Type mismatch for '+': comparing 'string[2]' with 'int64'\n"
		  "macro bad(x) { $y = \"a\" + x; $y }\n"
		  "                    ^~~\n"
		  "test:2:17-23: ERROR: expanded from\n"
		  "macro outer() { bad(2) }\n"
		  "                ^~~~~~\n"
		  "test:3:14-21: ERROR: expanded from\n"
		  "BEGIN { $a = outer(); }\n"
		  "             ^~~~~~~\n");
	free(out);
	compiled_free(&c);
	/* outside a macro: no chain */
	c = compile_as(g026, "BEGIN { $y = \"a\" + 1; }");
	CHECK(c.sc == NULL && c.err.set && c.err.loc.exp == 0);
	compiled_free(&c);
}

static void test_compiles(void)
{
	Compiled c = compile_as(g026, "macro add_one(x) { x + 1 } BEGIN { @ = add_one(add_one(1)); }");
	CHECK(c.sc != NULL);
	compiled_free(&c);
	/* a value with statements in a loop's condition and a predicate */
	c = compile_as(g026, "macro f() { $y = 1; $y } BEGIN /f() == 1/ { $i = 0; "
			     "while ($i + f() < 3) { $i++; } }");
	CHECK(c.sc != NULL);
	compiled_free(&c);
	/* a macro of a builtin's name with other parameters leaves it be */
	c = compile_as(g026, "macro cpu(x) { x } BEGIN { @a = cpu(); @b = cpu(\"s\"); }");
	CHECK(c.sc != NULL);
	compiled_free(&c);
	/* 0.17 has no macros */
	Error err;
	Program *p = parse_gen(g017, "macro one() { 1 } BEGIN { @ = one(); }", &err);
	CHECK(p == NULL && err.set);
	program_free(p);
}

int main(void)
{
	g026 = bt_generation_named("0.26.1");
	g017 = bt_generation_named("0.17");
	test_parse();
	test_expand();
	test_errors();
	test_expanded_from();
	test_compiles();
	return check_done("test_macros_bt26");
}
