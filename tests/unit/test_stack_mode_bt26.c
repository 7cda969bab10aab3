/* bpftrace 0.26's stack modes: kstack/ustack(MODE[, N]) with 0.26's four
 * modes (bpftrace, perf, raw, build_id) and 0.17's two, the default a call
 * that names none takes from the stack_mode config (Options.stack_mode),
 * kstack's fallback from build_id to raw (a warning) and its error when
 * named, and ustack(build_id)'s own stack map (R_BSTACK).  On the real
 * kernel: tests/bt26 (builtin.ustack builtin with stack_mode config,
 * call.ustack_stack_mode_*) and tests/runtime/test_bt26_stack_mode.sh. */
#include <string.h>

#include "check.h"
#include "compile_check.h"
#include "bt/generation_bt.h"

static const BtGeneration *g026, *g017;

/* text as 0.26 with the stack_mode config at mode */
static Compiled compile_mode(const char *text, StackMode mode)
{
	Options o = {.strlen_max = 64, .map_keys_max = 4096, .self_pid = 4242, .sema = g026->fe.sema,
		     .codegen = g026->fe.codegen, .stack_mode = mode};
	return compile_parsed(text, g026->fe.parse, &o);
}

/* the type of the first statement's value in the first probe */
static const Type *first_type(const Compiled *c)
{
	return c->sc ? c->prog->probes[0]->body.v[0]->expr->type : NULL;
}

static bool has_reloc(const Script *sc, RelocKind kind)
{
	for (int i = 0; sc && i < sc->progs.n; i++)
		for (int j = 0; j < sc->progs.v[i]->nrelocs; j++)
			if (sc->progs.v[i]->relocs[j].kind == kind)
				return true;
	return false;
}

static void test_named_modes(void)
{
	static const char *const progs[] = {"begin { @x = ustack(bpftrace, 3); }",
					    "begin { @x = ustack(perf, 3); }",
					    "begin { @x = ustack(raw, 3); }",
					    "begin { @x = ustack(build_id, 3); }"};
	for (int m = STACK_BPFTRACE; m <= STACK_BUILD_ID; m++) {
		Compiled r = compile_as(g026, progs[m]);
		const Type *t = first_type(&r);
		CHECK(t && t->kind == TY_USTACK && t->stack_mode == (StackMode)m && t->stack_depth == 3);
		CHECK(has_reloc(r.sc, R_BSTACK) == (m == STACK_BUILD_ID));
		CHECK(has_reloc(r.sc, R_USTACK) == (m != STACK_BUILD_ID));
		compiled_free(&r);
	}
}

/* a call naming no mode, and the bare builtins, take the config's */
static void test_default_mode(void)
{
	Compiled r = compile_mode("begin { @x = ustack(2); @y = kstack; }", STACK_RAW);
	const Type *t = first_type(&r);
	CHECK(t && t->stack_mode == STACK_RAW);
	CHECK(r.sc && r.prog->probes[0]->body.v[1]->expr->type->stack_mode == STACK_RAW);
	compiled_free(&r);
	r = compile_mode("begin { @x = ustack(perf, 2); }", STACK_RAW);
	CHECK(first_type(&r) && first_type(&r)->stack_mode == STACK_PERF);
	compiled_free(&r);
	r = compile_mode("begin { @x = ustack; }", STACK_BUILD_ID);
	CHECK(first_type(&r) && first_type(&r)->stack_mode == STACK_BUILD_ID);
	CHECK(has_reloc(r.sc, R_BSTACK));
	compiled_free(&r);
}

/* kstack under stack_mode=build_id: raw, with 0.26's warning */
static void test_kstack_build_id(void)
{
	Compiled r = compile_mode("begin { @x = kstack(4); }", STACK_BUILD_ID);
	CHECK(first_type(&r) && first_type(&r)->stack_mode == STACK_RAW);
	CHECK(r.sc && r.sc->warnings.n == 1 &&
	      !strcmp(r.sc->warnings.v[0].msg, "'build_id' stack mode can only be used for ustack. "
					       "Falling back to 'raw' mode."));
	compiled_free(&r);
	expect_error_as(g026, NULL, "begin { @x = kstack(build_id, 4); }", 1, 14,
			"'build_id' stack mode can only be used for ustack");
}

static void test_bad_modes(void)
{
	expect_error_as(g026, NULL, "begin { @x = ustack(fast); }", 1, 21,
			"ustack(): unknown stack mode 'fast' (bpftrace, perf, raw or build_id)");
	expect_error_as(g017, NULL, "BEGIN { @x = ustack(raw, 2); }", 1, 21,
			"ustack(): unknown stack mode 'raw' (bpftrace or perf)");
}

int main(void)
{
	unsetenv("SONDE_COMPAT");
	g026 = bt_generation_named("0.26");
	g017 = bt_generation_named("0.17");
	test_named_modes();
	test_default_mode();
	test_kstack_build_id();
	test_bad_modes();
	return check_done("test_stack_mode_bt26");
}
