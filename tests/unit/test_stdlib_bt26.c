/* bpftrace 0.26's standard library (src/builtins/ rows in FSET_BT_STDLIB):
 * seen in the default generation, unknown under 0.17; their types, their
 * errors (message and line:col), and what codegen emits for them.  Their
 * output on the real kernel: tests/runtime/cases/bt26_stdlib_*.bt and
 * tests/runtime/test_bt26_exit_code.sh. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compile_check.h"
#include "syms_check.h"
#include "bt/generation_bt.h"
#include "compile/builtin.h"
#include "compile/sema.h"
#include "probes/provider.h"

static const BtGeneration *g026, *g017;

/* with the test program's readers (syms_check.h) */
static Compiled compile_t(const BtGeneration *g, const char *text) { return compile_as_sym(g, text, &test_syms); }
#define expect_gen_error(g, ...) expect_error_as(g, &test_syms, __VA_ARGS__)

/* the type of statement i's expression in the first probe */
static const Type *stmt_type(const Compiled *c, int i)
{
	const Stmt *st = c->prog->probes[0]->body.v[i];
	return st->expr ? st->expr->type : NULL;
}

/* ---- the sets: 0.26 sees them, 0.17 and D do not ---- */

static void test_sets(void)
{
	CHECK(g026->fe.sema->func_sets & FSET_BT_STDLIB);
	CHECK(!(g017->fe.sema->func_sets & FSET_BT_STDLIB));
	CHECK(g026->fe.sema->vars_as_calls && !g017->fe.sema->vars_as_calls);
	const FuncDef *e26 = func_find_in("exit", DIALECT_BPFTRACE, FSET_BT_STDLIB);
	const FuncDef *e17 = func_find_in("exit", DIALECT_BPFTRACE, 0);
	CHECK(e26 && e17 && e26 != e17 && e26->max_args == 1 && e17->max_args == 0);
	CHECK(!func_find_in("has_key", DIALECT_BPFTRACE, 0));
	CHECK(!func_find_in("has_key", DIALECT_D, 0));
	CHECK(builtin_duplicate() == NULL);
	expect_gen_error(g017, "BEGIN { @m[1] = 1; print(has_key(@m, 1)); }", 1, 26,
			 "Unknown function: has_key");
	expect_gen_error(g017, "BEGIN { print(jiffies); }", 1, 15, "Unknown identifier: 'jiffies'");
	expect_gen_error(g017, "BEGIN { exit(1); }", 1, 9, "exit() requires no arguments (1 provided)");
	expect_gen_error(g017, "BEGIN { print(comm()); }", 1, 15, "Unknown function: comm");
	expect_gen_error(g017, "BEGIN { errorf(\"x\"); }", 1, 9, "Unknown function: errorf");
}

/* ---- what 0.26 removed: sargN, an unknown identifier; 0.17 keeps it ---- */

static void test_removed(void)
{
	CHECK(g026->fe.sema->no_sarg && !g017->fe.sema->no_sarg);
	expect_gen_error(g026, "uprobe:/proc/self/exe:main { @ = sarg0; }", 1, 34,
			 "Unknown identifier: 'sarg0'");
	Compiled c = compile_t(g017, "uprobe:/proc/self/exe:main { @ = sarg0; }");
	CHECK(c.sc != NULL);
	compiled_free(&c);
	c = compile_t(g026, "uprobe:/proc/self/exe:main { @ = arg0; }");
	CHECK(c.sc != NULL);
	compiled_free(&c);
}

/* ---- self:signal:SIGUSR1: a special probe of 0.26, an unknown type in 0.17 ---- */

static void test_self_probe(void)
{
	Compiled c = compile_t(g026, "self:signal:SIGUSR1 { printf(\"%s\\n\", probe); }");
	CHECK(c.sc && c.sc->specs[0].n == 1 &&
	      c.sc->specs[0].v[0].prov->is_special == SPECIAL_SIGNAL &&
	      !strcmp(c.sc->specs[0].v[0].name, "self:signal:SIGUSR1"));
	compiled_free(&c);
	expect_gen_error(g026, "self:signal:SIGUSR2 { }", 1, 1,
			 "self:signal:SIGUSR2: the self probe is self:signal:SIGUSR1 (bpftrace 0.26 "
			 "has no other)");
	c = compile_t(g017, "self:signal:SIGUSR1 { }");
	CHECK(!c.sc && c.err.set && !strncmp(c.err.msg, "unknown probe type 'self'", 25));
	compiled_free(&c);
}

/* ---- types ---- */

static void test_types(void)
{
	Compiled r = compile_t(g026, "begin { @m[1, \"a\"] = 1; has_key(@m, (1, \"a\")); len(@m); "
				 "delete(@m, (1, \"a\")); nsecs(tai); jiffies; ncpus; usermode; ppid; pcomm; "
				 "leader_comm(curtask); comm(); __builtin_pid; }");
	CHECK(r.sc != NULL);
	if (!r.sc) {
		fprintf(stderr, "  %s\n", r.err.msg);
		return;
	}
	for (int i = 1; i <= 6; i++)
		CHECK(stmt_type(&r, i)->kind == TY_INT && stmt_type(&r, i)->bits == 64);
	CHECK(stmt_type(&r, 7)->kind == TY_INT && stmt_type(&r, 7)->bits == 8);
	CHECK(stmt_type(&r, 8)->kind == TY_INT); /* the parent's tgid, from BTF */
	CHECK(stmt_type(&r, 9)->kind == TY_STR || stmt_type(&r, 9)->kind == TY_ARRAY);
	CHECK(stmt_type(&r, 10)->kind == TY_STR || stmt_type(&r, 10)->kind == TY_ARRAY);
	CHECK(stmt_type(&r, 11)->kind == TY_STR);
	CHECK(stmt_type(&r, 12)->kind == TY_INT);
	compiled_free(&r);
	r = compile_t(g026, "begin { signal_name(2); probetype; has_cpid; is_integer(1); "
			"is_ptr(curtask); is_str(comm); is_literal(pid); }");
	CHECK(r.sc != NULL);
	if (!r.sc) {
		fprintf(stderr, "  %s\n", r.err.msg);
		return;
	}
	CHECK(stmt_type(&r, 0)->kind == TY_SIGNAL);
	CHECK(stmt_type(&r, 1)->kind == TY_STR);
	const int is_want[] = {0, 1, 1, 1, 0}; /* has_cpid (no -c), is_*: their answers */
	for (int i = 0; i < 5; i++)
		CHECK(r.prog->probes[0]->body.v[2 + i]->expr->kind == E_BUILTIN ||
		      r.prog->probes[0]->body.v[2 + i]->expr->aux == is_want[i]);
	compiled_free(&r);
	r = compile_t(g026, "begin { is_err(curtask); }");
	CHECK(r.sc && stmt_type(&r, 0)->kind == TY_INT && stmt_type(&r, 0)->is_bool);
	compiled_free(&r);
}

/* ---- misuse ---- */

static void test_errors(void)
{
	expect_gen_error(g026, "begin { @g = 2; if (has_key(@g, 2)) { } }", 1, 21,
			 "call to has_key() expects a map with explicit keys (non-scalar map)");
	expect_gen_error(g026, "begin { print(has_key(1, 2)); }", 1, 15,
			 "has_key() expects a map to be provided");
	expect_gen_error(g026, "begin { @g = 2; $v = 0; if (find(@g, 2, $v)) { } }", 1, 29,
			 "call to find() expects a map with explicit keys (non-scalar map)");
	expect_gen_error(g026, "begin { @m[1] = 2; if (find(@m, 1, @x)) { } }", 1, 36,
			 "find() expects a scratch variable ($name) as its third argument, to set to "
			 "the value found");
	expect_gen_error(g026, "begin { @m[1] = \"s\"; $v = 1; find(@m, 1, $v); }", 1, 42,
			 "Type mismatch for $v: trying to assign value of type 'string[2]' when "
			 "variable already contains a value of type 'int64'");
	expect_gen_error(g017, "BEGIN { @m[1] = 1; $v = 0; find(@m, 1, $v); }", 1, 28,
			 "Unknown function: find");
	expect_gen_error(g026, "begin { @m[1] = 1; print(len(@m[1])); }", 1, 26,
			 "The map passed to len() should not be indexed by a key");
	expect_gen_error(g026, "begin { print(nsecs(foo)); }", 1, 21,
			 "Invalid timestamp mode: nsecs() takes monotonic, boot, tai or sw_tai");
	expect_gen_error(g026, "begin { exit(\"a\"); }", 1, 14, "exit() argument 1 must be an integer");
	expect_gen_error(g026, "begin { print(signal_name(\"INT\")); }", 1, 27,
			 "signal_name() only supports integer arguments (string provided)");
	expect_gen_error(g026, "begin { errorf(\"%d\", \"a\"); }", 1, 9,
			 "errorf: %d specifier expects a value of type integer (string supplied)");
	expect_gen_error(g026, "begin { $x = warnf(\"a\"); }", 1, 14, "warnf() does not return a value");
	expect_gen_error(g026, "begin { print(is_str()); }", 1, 15,
			 "is_str() requires one argument (0 provided)");
	expect_gen_error(g026, "begin { print(is_err(\"a\")); }", 1, 22,
			 "is_err() argument 1 must be an integer");
	expect_gen_error(g026, "begin { $x = signal_thread(1); }", 1, 14,
			 "signal_thread() does not return a value");
	expect_gen_error(g026, "begin { signal_thread(1); }", 1, 9,
			 "signal_thread() is an unsafe function being used in safe mode\n"
			 "hint: --unsafe allows it");
	expect_gen_error(g017, "BEGIN { print(is_err(0)); }", 1, 15, "Unknown function: is_err");
}

/* ---- code ---- */

static void check_calls(const char *prog, int fn)
{
	Compiled r = compile_t(g026, prog);
	CHECK(r.sc != NULL);
	if (r.sc && !helper_calls(r.sc, fn))
		fprintf(stderr, "FAIL: %s does not call helper %d\n", prog, fn);
	CHECK(r.sc && helper_calls(r.sc, fn));
	compiled_free(&r);
}

static void test_codegen(void)
{
	check_calls("begin { print(jiffies); }", BPF_FUNC_jiffies64);
	check_calls("begin { print(nsecs); }", BPF_FUNC_ktime_get_boot_ns);
	check_calls("begin { print(nsecs(monotonic)); }", BPF_FUNC_ktime_get_ns);
	check_calls("begin { print(nsecs(tai)); }", BPF_FUNC_ktime_get_tai_ns);
	check_calls("begin { @m[1] = 1; print(has_key(@m, 1)); }", BPF_FUNC_map_lookup_elem);
	check_calls("begin { @m[1] = 1; print(delete(@m, 1)); }", BPF_FUNC_map_delete_elem);
	/* find(): a bool, and the variable typed as the map's value */
	Compiled f = compile_t(g026, "begin { @m[1] = (2, \"a\"); let $v; find(@m, 1, $v); }");
	CHECK(f.sc != NULL);
	if (f.sc) {
		const Expr *c = f.prog->probes[0]->body.v[2]->expr;
		CHECK(c->type->kind == TY_INT && c->type->is_bool);
		CHECK(c->args.v[2]->type && c->args.v[2]->type->kind == TY_TUPLE);
		CHECK(helper_calls(f.sc, BPF_FUNC_map_lookup_elem));
	}
	compiled_free(&f);
	check_calls("begin { usermode }", BPF_FUNC_task_pt_regs);
	/* errorf: printf's record, an EV_DIAG event at the whole call */
	Compiled d = compile_t(g026, "begin { errorf(\"x %d\", 1); }");
	CHECK(d.sc && d.sc->events.n == 1 && d.sc->events.v[0]->kind == EV_DIAG &&
	      !strcmp(d.sc->events.v[0]->text, "ERROR") && d.sc->events.v[0]->loc.col == 9 &&
	      d.sc->events.v[0]->loc.len == 17);
	compiled_free(&d);
	/* len(@m): bpf_for_each_map_elem with a callback, a second function */
	Compiled r = compile_t(g026, "begin { @m[1] = 1; print(len(@m)); }");
	CHECK(r.sc && helper_calls(r.sc, BPF_FUNC_for_each_map_elem));
	CHECK(r.sc && r.sc->progs.v[0]->nfuncs == 1);
	compiled_free(&r);
	/* 0.17's nsecs stays CLOCK_MONOTONIC */
	r = compile_t(g017, "BEGIN { print(nsecs); }");
	CHECK(r.sc && helper_calls(r.sc, BPF_FUNC_ktime_get_ns) && !helper_calls(r.sc, BPF_FUNC_ktime_get_boot_ns));
	compiled_free(&r);
}

int main(void)
{
	unsetenv("SONDE_COMPAT");
	g026 = bt_generation_named("0.26");
	g017 = bt_generation_named("0.17");
	test_sets();
	test_removed();
	test_self_probe();
	test_types();
	test_errors();
	test_codegen();
	return check_done("test_stdlib_bt26");
}
