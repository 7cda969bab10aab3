/* Compiling a program in the unit tests (parsed as bpftrace 0.17's), and checking the error it gets:
 * the Compiled result and expect_error(), shared by test_sema.c and
 * test_funcs.c so each error case is one table row or one call. */
#pragma once
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "bt/generation_bt.h"
#include "compile/script.h"

typedef struct Compiled {
	Program *prog;
	Script *sc;
	Error err;
} Compiled;

/* text parsed with the rules po, then compiled with the options o */
static inline Compiled compile_parsed(const char *text, const ParseOpts *po, const Options *o)
{
	Compiled c = {0};
	Source src = {"test", text};
	c.prog = parse_program_opts(&src, po, &c.err);
	if (c.prog)
		c.sc = compile_program(c.prog, o, &c.err);
	return c;
}

static inline Compiled compile_with(const char *text, const Options *o)
{
	return compile_parsed(text, bt_generation_named("0.17")->fe.parse, o);
}

/* text compiled as generation g's bpftrace (its parse rules and hooks) */
static inline Compiled compile_as(const BtGeneration *g, const char *text)
{
	Options o = {.strlen_max = 64, .map_keys_max = 4096, .self_pid = 4242, .sema = g->fe.sema,
		     .codegen = g->fe.codegen};
	return compile_parsed(text, g->fe.parse, &o);
}

/* text compiled as generation g's bpftrace with its front end in use and
 * the options o (frontend_use fills o's hooks) */
static inline Compiled compile_as_opts(const BtGeneration *g, const char *text, Options *o)
{
	frontend_use(&g->fe, o, NULL);
	return compile_parsed(text, g->fe.parse, o);
}

/* text compiled as generation g's bpftrace with its front end in use and
 * the readers sym (NULL: none) */
static inline Compiled compile_as_sym(const BtGeneration *g, const char *text, SymCtx *sym)
{
	Options o = {.strlen_max = 64, .map_keys_max = 4096, .self_pid = 4242, .sym = sym};
	return compile_as_opts(g, text, &o);
}

/* whether text parses under generation g's grammar (no type check) */
static inline bool parses(const BtGeneration *g, const char *text)
{
	Error err = {0};
	Source src = {"test", text};
	Program *p = parse_program_opts(&src, g->fe.parse, &err);
	program_free(p);
	return p != NULL;
}

/* how many times the program pc calls helper fn (not a subprogram) */
static inline int prog_helper_calls(const ProgCode *pc, int fn)
{
	int n = 0;
	for (int i = 0; i < pc->ninsns; i++)
		n += pc->insns[i].code == (BPF_JMP | BPF_CALL) && pc->insns[i].src_reg == 0 &&
		     pc->insns[i].imm == fn;
	return n;
}

/* how many times sc's first program calls helper fn */
static inline int helper_calls(const Script *sc, int fn)
{
	return prog_helper_calls(sc->progs.v[0], fn);
}

static inline void compiled_free(Compiled *c)
{
	script_free(c->sc);
	program_free(c->prog);
	memset(c, 0, sizeof(*c));
}

/* prog must fail with exactly msg, at line:col (line 0: wherever): one
 * pass or one failure, which prints what it got */
static inline void expect_error(const char *prog, const Options *o, int line, int col,
				const char *msg)
{
	Compiled r = compile_with(prog, o);
	if (r.sc || !r.err.set) {
		check_failed++;
		fprintf(stderr, "FAIL: compiled without error: %s\n  want: %d:%d: %s\n", prog, line,
			col, msg);
	} else if (strcmp(r.err.msg, msg) ||
		   (line && (r.err.loc.line != line || r.err.loc.col != col))) {
		check_failed++;
		fprintf(stderr, "FAIL: %s\n  got:  %d:%d: %s\n  want: %d:%d: %s\n", prog,
			r.err.loc.line, r.err.loc.col, r.err.msg, line, col, msg);
	} else {
		check_passed++;
	}
	compiled_free(&r);
}

/* r (prog's compile) failed with msg at line:col; frees r */
static inline void check_error_at(Compiled r, const char *prog, int line, int col, const char *msg)
{
	if (r.sc || !r.err.set || strcmp(r.err.msg, msg) || r.err.loc.line != line ||
	    r.err.loc.col != col) {
		check_failed++;
		fprintf(stderr, "FAIL: %s\n  got:  %d:%d: %s\n  want: %d:%d: %s\n", prog,
			r.err.loc.line, r.err.loc.col, r.err.set ? r.err.msg : "(no error)", line, col,
			msg);
	} else {
		check_passed++;
	}
	compiled_free(&r);
}

/* r (prog's compile) failed with msg at column col, on any line; frees r */
static inline void check_error_col(Compiled r, const char *prog, int col, const char *msg)
{
	if (r.sc || !r.err.set || strcmp(r.err.msg, msg) || r.err.loc.col != col) {
		check_failed++;
		fprintf(stderr, "FAIL: %s\n  got:  %d: %s\n  want: %d: %s\n", prog, r.err.loc.col,
			r.err.set ? r.err.msg : "(no error)", col, msg);
	} else {
		check_passed++;
	}
	compiled_free(&r);
}

/* prog fails in generation g (readers sym) with msg at line:col */
static inline void expect_error_as(const BtGeneration *g, SymCtx *sym, const char *prog, int line,
				   int col, const char *msg)
{
	check_error_at(compile_as_sym(g, prog, sym), prog, line, col, msg);
}
