/* One front end, named once: its lexer hooks, its parser's rules, its sema
 * and code-generation hooks and its runtime hooks belong together, so a
 * command picks the descriptor (bt/generation_bt.c: bpftrace 0.26.1 or
 * 0.17; dtrace/frontend_d.c: D) instead of setting them field by field. */
#pragma once
#include "../compile/codegen_hooks.h"
#include "../compile/sema_hooks.h"
#include "../lang/lexer.h"
#include "../lang/parse_opts.h"
#include "frontend_rt.h"
#include "runtime.h"

typedef struct Frontend {
	const char *name;            /* "bpftrace 0.26.1", "bpftrace 0.17", "D" */
	Dialect dialect;             /* what its scripts say about their output (lang/fmt.h) */
	const LexHooks *lex;         /* its own tokens (NULL: bpftrace's) */
	const ParseOpts *parse;      /* its grammar's rules (NULL: bpftrace 0.17's) */
	const SemaHooks *sema;       /* its rules in sema */
	const CodegenHooks *codegen; /* its code generation (NULL: none) */
	const FrontendRt *rt;        /* its output at run time */
	const ProbeRules *probes;    /* how its probes expand (NULL: bpftrace 0.17's) */
} Frontend;

/* The compile's and the run's hooks from f: Options.dialect, .sema,
 * .codegen and RunOpts.fe (run may be NULL: a compile only) */
void frontend_use(const Frontend *f, Options *opt, RunOpts *run);
