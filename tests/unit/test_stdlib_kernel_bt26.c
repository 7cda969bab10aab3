/* bpftrace 0.26's functions that ask the kernel for what they name:
 * pid([curr_ns|init]), tid([curr_ns|init]) (src/builtins/pidns.c),
 * percpu_kaddr(name [, cpu]) (percpu.c), comm(pid) (comm_pid.c); their types, their errors
 * (message and line:col), what codegen emits, and that 0.17 has none of
 * them.  Their output on the real kernel: tests/runtime/test_bt26_pidns.sh,
 * test_bt26_comm_pid.sh, bt26's pid_namespace and call.percpu_kaddr tests. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compile_check.h"
#include "bt/generation_bt.h"
#include "compile/builtin.h"
#include "syms_check.h"

static const BtGeneration *g026, *g017;

/* with the test program's readers (syms_check.h) */
static Compiled compile_t(const BtGeneration *g, const char *text) { return compile_as_sym(g, text, &test_syms); }
#define expect_gen_error(g, ...) expect_error_as(g, &test_syms, __VA_ARGS__)

static void test_pid_types(void)
{
	Compiled r = compile_t(g026, "begin { pid(init); pid(curr_ns); pid(); tid(init); tid(); pid; tid; }");
	CHECK(r.sc != NULL);
	for (int i = 0; r.sc && i < 7; i++) {
		const Type *t = r.prog->probes[0]->body.v[i]->expr->type;
		CHECK(t->kind == TY_INT && t->bits == 32 && !t->is_signed);
	}
	compiled_free(&r);
}

static void test_pid_errors(void)
{
	expect_gen_error(g026, "begin { print(pid(foo)); }", 1, 19,
			 "Invalid PID namespace mode: pid() takes curr_ns or init");
	expect_gen_error(g026, "begin { print(tid(1)); }", 1, 19,
			 "Invalid PID namespace mode: tid() takes curr_ns or init");
	expect_gen_error(g026, "begin { print(pid(1, 2)); }", 1, 15,
			 "pid() takes up to one argument (2 provided)");
	expect_gen_error(g017, "BEGIN { print(pid(init)); }", 1, 15, "Unknown function: pid");
}

/* pid(init) is the kernel's pid_tgid; curr_ns in the initial namespace
 * too (the unit tests run there), else bpf_get_ns_current_pid_tgid */
static void test_pid_codegen(void)
{
	Compiled r = compile_t(g026, "begin { print((pid(init), tid(init))); }");
	CHECK(r.sc && helper_calls(r.sc, BPF_FUNC_get_current_pid_tgid) == 2);
	compiled_free(&r);
	/* 0.26's bare pid and tid are curr_ns's: family variables, not the core's */
	r = compile_t(g026, "begin { print((pid, tid)); }");
	CHECK(r.sc && r.prog->probes[0]->body.v[0]->expr->args.v[0]->args.v[0]->aux2 == B_FAMILY);
	CHECK(r.sc && helper_calls(r.sc, BPF_FUNC_get_current_pid_tgid) == 2);
	compiled_free(&r);
	r = compile_t(g017, "BEGIN { print((pid, tid)); }");
	CHECK(r.sc && r.prog->probes[0]->body.v[0]->expr->args.v[0]->args.v[0]->aux2 == B_PID);
	CHECK(r.sc && !helper_calls(r.sc, BPF_FUNC_get_ns_current_pid_tgid));
	compiled_free(&r);
	r = compile_t(g026, "begin { print(pid(curr_ns)); }");
	CHECK(r.sc != NULL);
	if (r.sc)
		CHECK(helper_calls(r.sc, BPF_FUNC_get_current_pid_tgid) +
			      helper_calls(r.sc, BPF_FUNC_get_ns_current_pid_tgid) == 1);
	compiled_free(&r);
}

/* ---- percpu_kaddr ---- */

static void test_percpu_types(void)
{
	Compiled r = compile_t(g026, "begin { percpu_kaddr(\"runqueues\"); "
				 "percpu_kaddr(\"runqueues\", 1); }");
	CHECK(r.sc != NULL);
	for (int i = 0; r.sc && i < 2; i++) {
		const Type *t = r.prog->probes[0]->body.v[i]->expr->type;
		CHECK(type_is_ptr(t) && t->pointee->kind == TY_INT && t->pointee->bits == 64);
	}
	compiled_free(&r);
}

static void test_percpu_errors(void)
{
	expect_gen_error(g026, "begin { print(percpu_kaddr(\"no_such_var_x\")); }", 1, 28,
			 "Could not resolve variable \"no_such_var_x\" from BTF");
	expect_gen_error(g026, "begin { $n = \"runqueues\"; print(percpu_kaddr($n)); }", 1, 33,
			 "percpu_kaddr() expects a string literal (string provided)");
	expect_gen_error(g026, "begin { print(percpu_kaddr(\"runqueues\", \"a\")); }", 1, 41,
			 "percpu_kaddr() argument 2 must be an integer");
	expect_gen_error(g026, "begin { print(percpu_kaddr()); }", 1, 15,
			 "percpu_kaddr() requires at least one argument (0 provided)");
	expect_gen_error(g017, "BEGIN { print(percpu_kaddr(\"runqueues\")); }", 1, 15,
			 "Unknown function: percpu_kaddr");
}

/* the variable goes to the helper straight from an ld_imm64 of its BTF id */
static void check_percpu_code(const char *prog, int helper)
{
	Compiled r = compile_t(g026, prog);
	CHECK(r.sc && helper_calls(r.sc, helper) == 1);
	const ProgCode *p = r.sc ? r.sc->progs.v[0] : NULL;
	int at = -1;
	for (int i = 0; p && i < p->ninsns; i++)
		if (p->insns[i].code == (BPF_LD | BPF_DW | BPF_IMM) &&
		    p->insns[i].src_reg == BPF_PSEUDO_BTF_ID)
			at = i;
	CHECK(at >= 0 && p->insns[at].dst_reg == BPF_REG_1 && p->insns[at].imm > 0);
	CHECK(at >= 0 && p->insns[at + 2].code == (BPF_JMP | BPF_CALL) &&
	      p->insns[at + 2].imm == helper);
	/* bpf_per_cpu_ptr's result (NULL for a CPU the machine lacks) is
	 * compared with 0 at once, so the verifier lets the script offset it
	 * after its own check (a computed `$p != 0`) */
	bool split = at >= 0 && p->insns[at + 3].code == (BPF_JMP | BPF_JNE | BPF_K) &&
		     p->insns[at + 3].dst_reg == BPF_REG_0 && p->insns[at + 3].imm == 0 &&
		     p->insns[at + 3].off == 0;
	CHECK(split == (helper == BPF_FUNC_per_cpu_ptr));
	compiled_free(&r);
}

static void test_percpu_codegen(void)
{
	check_percpu_code("begin { print(*percpu_kaddr(\"runqueues\")); }", BPF_FUNC_this_cpu_ptr);
	check_percpu_code("begin { print(*percpu_kaddr(\"runqueues\", cpu)); }", BPF_FUNC_per_cpu_ptr);
}

/* ---- comm(pid) ---- */

static void test_comm_pid(void)
{
	Compiled r = compile_t(g026, "begin { comm(1); comm(); }");
	if (!r.sc && r.err.set && strstr(r.err.msg, "Linux 6.2 or later")) {
		fprintf(stderr, "SKIP comm(pid): %s\n", r.err.msg); /* an older kernel */
		compiled_free(&r);
		return;
	}
	CHECK(r.sc != NULL);
	if (r.sc) {
		const Expr *c = r.prog->probes[0]->body.v[0]->expr;
		CHECK(c->type->kind == TY_STR && c->type->size == 16);
		CHECK(r.prog->probes[0]->body.v[1]->expr->kind == E_BUILTIN); /* the variable */
		int kfuncs = 0;
		const ProgCode *p = r.sc->progs.v[0];
		for (int i = 0; i < p->ninsns; i++)
			kfuncs += p->insns[i].code == (BPF_JMP | BPF_CALL) &&
				  p->insns[i].src_reg == BPF_PSEUDO_KFUNC_CALL;
		CHECK(kfuncs == 2); /* bpf_task_from_pid, bpf_task_release */
		CHECK(helper_calls(r.sc, BPF_FUNC_probe_read_kernel_str) == 1);
		/* no task: the warning "No such process (pid=N)" at the call */
		CHECK(r.sc->events.n == 1);
		const EventDesc *ev = r.sc->events.n ? r.sc->events.v[0] : NULL;
		CHECK(ev && ev->kind == EV_DIAG && !strcmp(ev->text, "WARNING") && ev->nargs == 1);
		CHECK(ev && ev->loc.col == 9 && ev->fmt && ev->fmt->nargs == 1);
	}
	compiled_free(&r);
	expect_gen_error(g026, "begin { print(comm(\"x\")); }", 1, 20,
			 "comm() argument 1 must be an integer");
	expect_gen_error(g026, "begin { print(comm(1, 2)); }", 1, 15,
			 "comm() takes up to one argument (2 provided)");
	expect_gen_error(g017, "BEGIN { print(comm(1)); }", 1, 15, "Unknown function: comm");
}

int main(void)
{
	unsetenv("SONDE_COMPAT");
	g026 = bt_generation_named("0.26");
	g017 = bt_generation_named("0.17");
	test_pid_types();
	test_pid_errors();
	test_pid_codegen();
	test_percpu_types();
	test_percpu_errors();
	test_percpu_codegen();
	test_comm_pid();
	return check_done("test_stdlib_kernel_bt26");
}
