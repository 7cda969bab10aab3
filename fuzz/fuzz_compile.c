/* libFuzzer target: program text -> parser -> sema -> codegen, through both
 * front ends: the bpftrace language, and D (sonde dtrace: macros, the D
 * parser, its rewrite).  Nothing is loaded into the kernel; any crash, leak
 * or sanitizer report is a bug. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compile/script.h"
#include "bt/generation_bt.h"
#include "dtrace/dtrace.h"
#include "dtrace/runtime_d.h"
#include "lang/ast.h"
#include "lang/cpp.h"
#include "sym/symctx.h"

/* The readers' caches (sym/symctx.h): the fuzzing process is one run, so
 * one context made on the first input serves them all (one per input
 * re-read kallsyms, BTF and the kprobe index for each: the seed corpus ran
 * at 2 inputs/s, against 23-59 before, on a loaded machine), freed at
 * exit, before LeakSanitizer's own check
 * (registered earlier, so run later): what a cache holds and its free
 * misses is reported then. */
static SymCtx *fuzz_ctx;

static void fuzz_syms_free(void)
{
	sym_ctx_free(fuzz_ctx);
}

static SymCtx *fuzz_syms(void)
{
	if (!fuzz_ctx) {
		fuzz_ctx = sym_ctx_new();
		atexit(fuzz_syms_free);
	}
	return fuzz_ctx;
}

static void fuzz_bpftrace(const char *text, SymCtx *syms)
{
	Source src = {.name = "fuzz", .text = text};
	Error err = {0};
	const Frontend *fe = &bt_generation_named("0.17")->fe;
	Program *p = parse_program_opts(&src, fe->parse, &err);
	if (p) {
		static char *params[] = {"1", "two"};
		Options opt = {.strlen_max = 64, .map_keys_max = 4096, .params = params,
			       .nparams = 2, .self_pid = 1, .sym = syms};
		frontend_use(fe, &opt, NULL);
		Script *sc = compile_program(p, &opt, &err);
		script_free(sc);
		program_free(p);
	}
}

static void fuzz_d(const char *text, bool cpp, SymCtx *syms)
{
	static char *argv[] = {"fuzz.d", "1", "two"};
	Options opt = {.strlen_max = 64, .map_keys_max = 4096, .self_pid = 1, .sym = syms};
	frontend_use(&d_frontend, &opt, NULL);
	DEnv env = {.argv = argv, .argc = 3, .opt = &opt, .cpp = cpp};
	Error err = {0};
	char *t = d_macro_expand(text, &env, &err);
	Source src = {.name = "fuzz.d", .text = t};
	int n;
	Program *p = t ? d_parse(&src, &env, &n, &err) : NULL;
	if (p && d_rewrite(p, &env, &err))
		script_free(compile_program(p, &opt, &err));
	program_free(p);
	free(t);
	for (int i = 0; i < opt.nd_opts; i++)
		free(opt.d_opts[i]);
	free(opt.d_opts);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	SymCtx *syms = fuzz_syms();
	fuzz_bpftrace(text, syms);
	fuzz_d(text, false, syms);
	/* -C: the C preprocessor first (no #include: the fuzzer's text names no
	 * file); macros multiply text, so the D compile sees at most what a
	 * fuzzed text may be (4096 clauses of "1 1 1 ..." take seconds) */
	CppOpts co = {.predefine = true, .no_includes = true, .max_tokens = 20000};
	CppOut out;
	CppError cerr;
	if (strchr(text, '#') && cpp_run(text, "fuzz.d", &co, &out, &cerr)) {
		if (strlen(out.text) <= 4096)
			fuzz_d(out.text, true, syms);
		cpp_out_free(&out);
	}
	free(text);
	return 0;
}
