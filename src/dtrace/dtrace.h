/* sonde dtrace: DTrace's D language and dtrace(1)'s command line on
 * sonde's compiler.  The D front end turns D text into the same Program
 * (lang/ast.h) the bpftrace parser builds, with Options.dialect = DIALECT_D;
 * sema, codegen and the runtime do the rest.
 *
 *   d_cli.c      dtrace(1)'s command line, the run, its messages
 *   d_options.c  -x / #pragma D option: names, values, effects
 *   d_macros.c   macro arguments ($1, $$1, $target, $pid, ...) in the text
 *   d_parser.c   pragmas, C declarations, clauses and probe descriptions
 *   d_probes.c   probe descriptions -> DTrace probes -> sonde attach points
 *   d_builtins.c D's variables (execname, self->, this->, globals) on the tree
 *   d_args.c     typed args[] of proc/sched/io, translators (curpsinfo, ...)
 *   d_diag.c     compile errors in dtrace(1)'s words and tags */
#pragma once
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../compile/script.h"
#include "../lang/ast.h"
#include "../lang/lexer.h"

/* `translator OUT < IN NAME > { MEMBER = EXPR; ... };`: xlate <OUT>(x) and
 * xlate <OUT *>(x) members are the member's expression with NAME standing
 * for x (cast to IN) */
typedef struct DXlator {
	const char *out;   /* "struct foo", "psinfo_t" */
	const char *in;    /* "struct task_struct *" */
	const char *ident; /* NAME */
	StmtList members;  /* MEMBER = EXPR (targets are E_BUILTIN names) */
	Loc loc;
	Loc end;           /* its closing "};" (where dtrace reports its errors) */
} DXlator;

/* `extern TYPE NAME;`: the type of the kernel variable `NAME (d_ksym.c);
 * an array's is a typedef d_parser.c adds to the C definitions */
typedef struct DExtern {
	const char *name;
	const char *type; /* "struct btf_header", "unsigned long", "struct task_struct *" */
} DExtern;

/* What a D program is compiled against: the macro values and switches the
 * command line and pragmas give. */
typedef struct DEnv {
	char **argv;     /* macro arguments $1..$N (argv[0] is $0) */
	int argc;
	int target;      /* $target: -c's child or -p's process, 0 if none */
	const char *cmd; /* -c: the command (its child has not exec'd it yet) */
	bool defaultargs; /* unset $N are 0 / "" instead of an error */
	bool zdefs;      /* -Z: descriptions matching nothing are allowed */
	bool quiet;      /* -q or #pragma D option quiet */
	bool cpp;        /* -C: preprocessor lines allowed (sonde runs them on C declarations) */
	Options *opt;    /* where -x / #pragma D option values go */
	DInlineDecl *inlines; /* `inline TYPE NAME = EXPR;` (in the programs' arenas) */
	int ninlines;
	DXlator *xlators; /* user translators (in the programs' arenas) */
	int nxlators;
	DExtern *externs; /* extern variable declarations (in the programs' arenas) */
	int nexterns;
	int necbs;        /* the enabled probes (clause, probe) so far: the last EPID given */
	int nclauses;     /* the clauses (one per probe description of each) so far */
} DEnv;

/* One DTrace probe, as `dtrace -l` lists it, and what sonde attaches for it
 * (attach NULL: the probe exists but nothing is attached). */
typedef struct DProbe {
	DProbeName n;
	const char *attach;
	const char *also[3]; /* more hooks of the same probe (sched:::enqueue), or NULL */
} DProbe;

typedef void (*DProbeFn)(const DProbe *p, void *arg);

/* Every probe matching the description "prov:mod:func:name" (fields may be
 * omitted from the left, may be empty, may hold globs).  Returns the count,
 * or -1 with a message in err for a description that cannot be valid. */
int d_probes_match(const char *desc, const DEnv *env, DProbeFn fn, void *arg, char *err,
		   size_t errlen);
/* dtrace -l: every probe (desc NULL) or those of the description */
int d_probes_list(FILE *out, const char *desc, bool verbose, const DEnv *env);

/* $N, $$N, $target, $pid ... replaced in text (outside strings and
 * comments); lines are kept, so errors still name the right line.
 * Returns a malloc'd text or NULL with err set. */
char *d_macro_expand(const char *text, const DEnv *env, Error *err);

/* d_cpp_msg.c: cpp's messages under -C as dtrace shows them: the script
 * (on cpp's stdin in dtrace) named "/dev/stdin", with no column and none of
 * its lines; a header's messages as they are */
struct CppError;
void d_cpp_error_print(FILE *f, const struct CppError *e, const char *script);
void d_cpp_text_print(FILE *f, const char *text, const char *script);

/* #pragma D option NAME[=VALUE] (pragma) and -x NAME[=VALUE]: records the
 * option; false with dtrace's message for an unknown option or a value it
 * does not take (d_options.c) */
bool d_option_set(DEnv *env, const char *opt, bool pragma, char *msg, size_t msglen);
/* VALUE as libdtrace reads a size (64k, 4m) or a rate (10hz, 100ms, 5s, ns) */
bool d_size_parse(const char *v, long long *bytes);
bool d_rate_parse(const char *v, long long *ns);
/* an option's value that turns it off: "", no, off, false, ... */
bool d_option_off(const char *v);
/* `#pragma D option defaultargs` in text: set before $N are replaced */
void d_options_prescan(DEnv *env, const char *text);
/* -b / -x bufsize (bytes per CPU, as dtrace's principal buffers): the event
 * ring's size, the power-of-two pages per CPU that hold it (fewer when the
 * kernel's bound is lower) */
struct RunOpts;
void d_option_bufsize(const Options *o, struct RunOpts *run);
/* the last -x/pragma value of a rate option in ns, or dflt */
long long d_option_rate(const Options *o, const char *name, long long dflt);

/* Parses D text (macros already expanded).  *nmatched counts the probes
 * its descriptions matched. */
Program *d_parse(const Source *src, DEnv *env, int *nmatched, Error *err);
/* D's tokens, which the lexer asks for (lexer_d.c) */
extern const LexHooks d_lex_hooks;

/* Rewrites D's variables and idioms into sonde's (execname -> comm,
 * self->x -> a map keyed by tid, ...).  False with err set on misuse. */
bool d_rewrite(Program *p, const DEnv *env, Error *err);

/* The translator declarations against the script's C types: redeclared,
 * an output type that is no struct or union, members it has not
 * (d_xlate_check.c).  False with err set. */
bool d_xlate_check(const Program *p, const DEnv *env, Error *err);

/* dtrace's D_ALLOCA_INCOMPAT: a variable given both alloca() memory and
 * another pointer (d_alloca_check.c); after sema.  False with err set. */
bool d_alloca_check(const Program *p, Error *err);

/* An integer constant expression's value, folded as D folds it (d_const.c) */
bool d_const_int(const Expr *e, int64_t *v);
/* `a / d`, `a % d` (op), also `x /= d`: D_DIV_ZERO when d folds to 0 */
bool d_check_div(Op op, const Expr *divisor, Error *err);

/* Clause-locals the clause reads before it assigns them (declared ones,
 * ++/--/op= targets) start at zero: `this->x = 0` first (d_this_init.c) */
void d_this_init(Program *p, Probe *pr);

/* The error as dtrace(1) prints it after "dtrace: ": `failed to compile
 * script F: line N: MSG` (file) or `invalid probe specifier S: MSG` (-n),
 * where an error found after parsing is `in action list: MSG`. */
void d_diag_print(FILE *f, const char *script, const char *spec, const Source *src,
		  const Error *e, bool errtags, bool in_actions);
/* the same, naming line (not e's: after -C's preprocessor the script's line)
 * and, for a line of an #include'd file, the file ("FILE", line N); region:
 * where in a -n program ("in predicate", "in action list"), or NULL */
void d_diag_print_at(FILE *f, const char *script, const char *spec, const Source *src,
		     const Error *e, bool errtags, const char *region, int line, const char *filetag);

/* The typed arguments of a probe (proc, sched, io: args[N], translated
 * members, the filter its hook needs), or NULL when its args[N] are argN. */
typedef struct DArgSig DArgSig;
/* the signature of prov:::name at its hook (an attach point's text), or
 * with hook NULL its first one (-lv) */
const DArgSig *d_args_of(const char *prov, const char *name, const char *hook);
/* Probes that may share one compiled clause (same args[], no filter) */
bool d_args_same(const DArgSig *a, const DArgSig *b);
/* The predicate that selects the probe's firings from its hook's, or NULL */
Expr *d_args_filter(Program *p, SymCtx *sc, const DArgSig *s, Loc loc, Error *err);
/* profile-N / tick-N's arg0 (the kernel PC, 0 in user mode) and arg1 (the
 * user PC, 0 in the kernel), or NULL for another argument */
Expr *d_args_profile(Program *p, const char *name, Loc loc, Error *err);
/* args[n] (not a translated pointer); args[n]->member of a translated one */
Expr *d_args_index(Program *p, const DArgSig *s, int n, Loc loc, Error *err);
Expr *d_args_member(Program *p, const DArgSig *s, int n, const char *member, Loc loc, Error *err);
/* a member of the built-in translator to `type` (psinfo_t, lwpsinfo_t, ...)
 * with the E_BUILTIN `in` standing for what it translates; NULL with err
 * set for a member it has not, or without err set for a type it is not.
 * d_xlate_builtin_exists: whether there is one to `type`. */
Expr *d_xlate_builtin(Program *p, const char *type, const char *in, const char *member, Loc loc,
		      Error *err);
bool d_xlate_builtin_exists(const char *type);
/* sched:::tick's hook: the address of the tick hrtimer's handler, 0 when
 * the kernel has none by the names sonde knows */
uint64_t d_args_tick_handler(SymCtx *sc);
/* SSLEEP, B_WRITE, CLD_EXITED, ...: the translators' int constants */
bool d_args_const(const char *name, int *value);
/* dtrace -lv: the probe's stability attributes and argument types */
void d_args_print_info(FILE *out, SymCtx *sc, const DProbeName *n);

int dtrace_main(int argc, char **argv);

/* D's code generation hooks, for Options.codegen (codegen_hooks_d.c) */
struct CodegenHooks;
extern const struct CodegenHooks d_codegen_hooks;

/* d_ksym.c: `name and module`name, kernel variables read at their address */
bool d_is_ksym(const char *name);
Expr *d_ksym_expr(Program *prog, const DEnv *env, const Expr *e, Error *err);
