/* path(p[, size]) (builtins/ctx.c): bpf_d_path needs a struct path the
 * verifier trusts, so its argument's chain is loaded from the context
 * (codegen_ctype.c's gen_btf_ptr), not read with bpf_probe_read: in
 * iter:task_file, ctx->file is a direct load from the context, checked
 * for NULL, then f_path's offset is added.  The size (0.26) is the
 * buffer's.  The errors in 0.26's and 0.17's words.  Its output on the
 * real kernel: tests/runtime/test_bt26_path.sh. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compile_check.h"
#include "bt/generation_bt.h"
#include "syms_check.h"

static const BtGeneration *g026, *g017;

#define expect_gen_error(g, ...) expect_error_as(g, &test_syms, __VA_ARGS__)

/* the d_path calls of program 0: each with r1 loaded from the context
 * (R_CTX) plus a constant, after a NULL check, and r3 = size */
static int dpath_calls(const Script *sc, int size)
{
	const ProgCode *p = sc->progs.v[0];
	int n = 0, ctx_load = -1, null_check = -1;
	for (int i = 0; i < p->ninsns; i++) {
		const struct bpf_insn *in = &p->insns[i];
		if (in->code == (BPF_LDX | BPF_MEM | BPF_DW) && in->src_reg == R_CTX)
			ctx_load = i;
		if (ctx_load >= 0 && i == ctx_load + 1 && in->code == (BPF_JMP | BPF_JEQ | BPF_K) &&
		    in->imm == 0)
			null_check = i;
		if (in->code == (BPF_ALU64 | BPF_MOV | BPF_K) && in->dst_reg == BPF_REG_3 &&
		    i + 1 < p->ninsns && p->insns[i + 1].code == (BPF_JMP | BPF_CALL) &&
		    p->insns[i + 1].imm == BPF_FUNC_d_path)
			n += null_check >= 0 && null_check < i && in->imm == size;
	}
	return n;
}

static void test_code(void)
{
	Compiled r = compile_as_sym(g026, "iter:task_file { print(path(ctx->file->f_path, 48)); "
				    "print(path(ctx.file.f_path)); }", &test_syms);
	if (!r.sc) { /* no BTF for the iterator: the runtime test says more */
		fprintf(stderr, "SKIP test_path_bt26 code: %s\n", r.err.msg);
		compiled_free(&r);
		return;
	}
	CHECK(r.prog->probes[0]->body.v[0]->expr->args.v[0]->type->size == 48);
	CHECK(dpath_calls(r.sc, 48) == 1);
	CHECK(dpath_calls(r.sc, 64) == 1); /* 0.17's strlen is the tests' default max_strlen */
	compiled_free(&r);
}

static void test_errors(void)
{
	expect_gen_error(g026, "tracepoint:syscalls:sys_enter_openat { print(path(args.filename)); }", 1,
			 46, "The path function can only be used with 'fentry', 'fexit', 'iter' probes");
	expect_gen_error(g017, "tracepoint:syscalls:sys_enter_openat { print(path(args.filename)); }", 1,
			 46, "The path function can only be used with 'kfunc', 'kretfunc', 'iter' probes");
	expect_gen_error(g026, "iter:task_file { print(path(1)); }", 1, 24,
			 "path() only supports pointer or record argument (integer provided)");
	expect_gen_error(g026, "iter:task_file { $n = 8; print(path(ctx->file->f_path, $n)); }", 1,
			 32, "path: invalid size value, need non-negative literal");
	expect_gen_error(g017, "iter:task_file { print(path(ctx->file->f_path, 8)); }", 1, 24,
			 "path() requires one argument (2 provided)");
}

int main(void)
{
	unsetenv("SONDE_COMPAT");
	g026 = bt_generation_named("0.26");
	g017 = bt_generation_named("0.17");
	test_code();
	test_errors();
	return check_done("test_path_bt26");
}
