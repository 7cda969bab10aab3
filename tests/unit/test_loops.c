/* bpftrace 0.26's for loops: the type rules and errors (sema_loop.c) and
 * the code (codegen_loop.c): a range is a bpf_loop call, a map a
 * bpf_for_each_map_elem call, each body a callback subprogram after the
 * program that the call's ld_imm64 (BPF_PSEUDO_FUNC) names. */
#include "compile_check.h"
#include "syms_check.h"
#include "bt/generation_bt.h"

/* text parsed and compiled as bpftrace 0.26.1's */
static Compiled compile_gen026(const char *text)
{
	Options o = {.sym = &test_syms, .strlen_max = 64, .map_keys_max = 4096};
	return compile_as_opts(bt_generation_named("0.26"), text, &o);
}

static Compiled compile_026(const char *text)
{
	Compiled c = compile_gen026(text);
	if (!c.sc)
		fprintf(stderr, "compile failed: %s\n  %d:%d: %s\n", text, c.err.loc.line,
			c.err.loc.col, c.err.msg);
	return c;
}

static void expect_error_026(const char *prog, int col, const char *msg)
{
	check_error_col(compile_gen026(prog), prog, col, msg);
}

/* whether each callback's address is loaded by a ld_imm64 that points at
 * a subprogram's first instruction */
static int callbacks_named(const ProgCode *pc)
{
	int n = 0;
	for (int i = 0; i < pc->ninsns; i++) {
		const struct bpf_insn *in = &pc->insns[i];
		if (in->code != (BPF_LD | BPF_DW | BPF_IMM) || in->src_reg != BPF_PSEUDO_FUNC)
			continue;
		for (int f = 0; f < pc->nfuncs; f++)
			n += pc->funcs[f] == i + 1 + in->imm;
	}
	return n;
}

static void test_range_code(void)
{
	Compiled c = compile_026("BEGIN { for ($i : 0..10) { print($i); } }");
	CHECK(c.sc && c.sc->progs.n == 1);
	if (c.sc) {
		const ProgCode *pc = c.sc->progs.v[0];
		CHECK(pc->nfuncs == 1);
		CHECK(prog_helper_calls(pc, BPF_FUNC_loop) == 1);
		CHECK(callbacks_named(pc) == 1);
		/* a callback ends the program: its last instruction is an exit */
		CHECK(pc->insns[pc->ninsns - 1].code == (BPF_JMP | BPF_EXIT));
	}
	compiled_free(&c);
}

static void test_map_code(void)
{
	Compiled c = compile_026("BEGIN { @a[1] = 2; @b[\"x\"] = \"y\"; for ($kv : @a) { "
				 "for ($kv2 : @b) { print(($kv.0, $kv2.1)); } } }");
	CHECK(c.sc != NULL);
	if (c.sc) {
		const ProgCode *pc = c.sc->progs.v[0];
		CHECK(pc->nfuncs == 2); /* the nested loop's callback follows its parent's */
		CHECK(prog_helper_calls(pc, BPF_FUNC_for_each_map_elem) == 2);
		CHECK(callbacks_named(pc) == 2);
		CHECK(pc->funcs[0] < pc->funcs[1]);
	}
	compiled_free(&c);
}

/* a program without loops keeps its integer variables on the stack (the
 * code of 0.17's scripts is unchanged); with one, the variables the body
 * shares live in scratch */
static void test_no_loop_no_callback(void)
{
	Compiled c = compile_026("BEGIN { $x = 1; print($x); }");
	CHECK(c.sc && c.sc->progs.v[0]->nfuncs == 0);
	compiled_free(&c);
}

/* zeroing stores to the probe's own stack, before the first callback */
static int stack_zeroings(const ProgCode *pc)
{
	int n = 0, end = pc->nfuncs ? pc->funcs[0] : pc->ninsns;
	for (int i = 0; i < end; i++)
		n += pc->insns[i].code == (BPF_ST | BPF_MEM | BPF_DW) &&
		     pc->insns[i].dst_reg == BPF_REG_10 && pc->insns[i].imm == 0;
	return n;
}

/* an integer variable no loop body uses stays on the probe's stack, where
 * the verifier bounds a while loop over it (in scratch it could not) */
static void test_while_beside_for(void)
{
	Compiled a = compile_026("BEGIN { $s = 0; for ($j : 0..3) { $s += $j; } print($s); }");
	Compiled b = compile_026("BEGIN { $i = 0; $s = 0; while ($i < 3) { $i++; } "
				 "for ($j : 0..3) { $s += $j; } print(($i, $s)); }");
	CHECK(a.sc && b.sc);
	if (a.sc && b.sc)
		CHECK(stack_zeroings(b.sc->progs.v[0]) == stack_zeroings(a.sc->progs.v[0]) + 1);
	compiled_free(&a);
	compiled_free(&b);
}

static void test_loop_var_scope(void)
{
	/* two loops, one name, two types: each loop's variable is its own */
	Compiled c = compile_026("BEGIN { @a[1] = 2; @b[1] = \"s\"; for ($kv : @a) { print($kv); } "
				 "for ($kv : @b) { print($kv); } }");
	CHECK(c.sc != NULL);
	compiled_free(&c);
	/* ((key1, key2), value) for a map with two keys */
	c = compile_026("BEGIN { @m[1, \"a\"] = 3; for ($kv : @m) { $k = $kv.0.1; print($k); } }");
	CHECK(c.sc != NULL);
	compiled_free(&c);
}

static void test_errors(void)
{
	expect_error_026("BEGIN { $kv = 1; @m[1] = 1; for ($kv : @m) { } }", 34,
			 "Loop declaration shadows existing variable: $kv");
	expect_error_026("BEGIN { for ($i : \"a\"..3) { } }", 19,
			 "Loop range requires an integer for the start value");
	expect_error_026("BEGIN { for ($i : 0..\"b\") { } }", 22,
			 "Loop range requires an integer for the end value");
	expect_error_026("BEGIN { for ($kv : @nope) { } }", 20, "Undefined map: @nope");
	expect_error_026("BEGIN { @c[1] = count(); for ($kv : @c) { } }", 37,
			 "Loop expression does not support type: count()");
	expect_error_026("BEGIN { for ($i 0..3) { } }", 17, "syntax error, unexpected integer\n"
			 "hint: expecting ':'");
	/* the loop variable is gone after the loop */
	expect_error_026("BEGIN { for ($i : 0..3) { } print($i); }", 35,
			 "Undefined or undeclared variable: $i");
}

/* records: `(a = 1, b = "x")`, `.a`, nested, as map keys and values */
static void test_records(void)
{
	Compiled c = compile_026("BEGIN { $v = (x = 1, y = 2); $t = (a = 0, c = \"s\", e = $v); "
				 "@[$t] = $v; print($t.e.y); }");
	CHECK(c.sc != NULL);
	if (c.sc) {
		char buf[128];
		const MapInfo *m = c.sc->maps.v[0];
		CHECK_STR(type_name(m->val, buf, sizeof(buf)), "record (x=int64, y=int64)");
		CHECK(m->key->names && !strcmp(m->key->names[2], "e") && m->key->elem[2]->names);
	}
	compiled_free(&c);
	expect_error_026("BEGIN { $v = (x = 1, y = 2); print($v.z); }", 39,
			 "Record does not contain a field named 'z'");
	expect_error_026("BEGIN { $v = (x = 1, x = 2); }", 22,
			 "Named argument list already contains name: x");
	/* the same fields in another order: one type, the first order stays */
	c = compile_026("BEGIN { @r = (x = 1, y = \"s\"); @r = (y = \"longer\", x = 2); }");
	CHECK(c.sc != NULL);
	if (c.sc) {
		char buf[128];
		CHECK_STR(type_name(c.sc->maps.v[0]->val, buf, sizeof(buf)),
			  "record (x=int64, y=string[7])");
	}
	compiled_free(&c);
	expect_error_026("BEGIN { $v = (x = 1, y = 2); $v = (y = 1, z = 2); }", 33,
			 "Type mismatch for $v: trying to assign value of type '(y=int64,z=int64)' when "
			 "variable already contains a value of type '(x=int64,y=int64)'");
	/* a record is not a tuple, nor a record with other names */
	expect_error_026("BEGIN { $v = (x = 1, y = 2); $v = (1, 2); }", 33,
			 "Type mismatch for $v: trying to assign value of type '(int64,int64)' when "
			 "variable already contains a value of type '(x=int64,y=int64)'");
}

/* 0.17's grammar has neither */
static void test_017(void)
{
	const char *progs[] = {"BEGIN { for ($i : 0..3) { } }", "BEGIN { $r = (a = 1); }"};
	for (int i = 0; i < 2; i++) {
		Error err = {0};
		Source src = {"test", progs[i]};
		Program *p = parse_program_opts(&src, bt_generation_named("0.17")->fe.parse, &err);
		CHECK(p == NULL && err.set);
		program_free(p);
	}
}

int main(void)
{
	test_range_code();
	test_map_code();
	test_no_loop_no_callback();
	test_while_beside_for();
	test_loop_var_scope();
	test_errors();
	test_records();
	test_017();
	printf("loops: %d passed, %d failed\n", check_passed, check_failed);
	return check_failed != 0;
}
