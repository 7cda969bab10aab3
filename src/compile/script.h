/* What compiling a program produces: the maps it declares, the events its
 * BPF programs send to user space, and the BPF programs themselves.  The
 * loader creates and loads these; the runtime decodes events with them. */
#pragma once
#include <linux/bpf.h>
#include <stdbool.h>
#include <stdint.h>

#include "../bpf/program.h"
#include "../lang/ast.h"
#include "../lang/fmt.h"
#include "../lang/types.h"
#include "../probes/provider.h"
#include "../util/strindex.h"

typedef struct MapInfo {
	char *name;      /* without '@'; "" for @ */
	char *print_name; /* with '@' */
	int id;
	Type *key;       /* NULL: no keys */
	Type *val;       /* NULL until a use gives it a type */
	Loc loc;         /* first use */
	bool percpu;     /* aggregations are per-CPU */
	signed char addrspace; /* of the first value assigned (sema_addrspace.c) */
	bool addrspace_set;
	bool failed;     /* an assignment's value had an error (sema: Sema.all) */
	bool none;       /* a value bpftrace types "none" (Expr.none) */
	int max_entries; /* keys it holds (compile.c: size_maps) */
	int64_t decl_entries; /* declared (`let @m = hash(N);`: N), else 0 */
	bool lru;        /* declared lruhash/percpulruhash: a full map evicts */
	int64_t key_bound; /* keys its accesses can make (codegen_map.c:
			    * count_keys): 0 none seen, -1 no bound */
	int fd;          /* loader */
} MapInfo;

typedef struct VarInfo {
	char *name;
	Type *type;
	int off;         /* scratch offset (codegen) */
	bool assigned;
	signed char addrspace; /* of the first value assigned (sema_addrspace.c) */
	bool addrspace_set;
	bool failed; /* its first assignment's value had an error (sema: Sema.all) */
	bool none;   /* and bpftrace types that value "none" (Expr.none) */
	bool out_of_scope; /* a for loop's variable after its loop: not found by name */
	bool declared;     /* by `let $x;` (block scoping): typed by its uses, int64 if read first */
	/* codegen: the for loop whose body alone uses it (an integer there
	 * lives on that callback's stack), or NULL */
	const struct Stmt *loop;
	/* codegen: used in a for loop's body and elsewhere (it lives in
	 * scratch, which the loop's callback and the probe both reach) */
	bool loop_shared;
	/* where it was first declared, assigned or bound by a for loop, and
	 * bpftrace's words for it ("This is the initial declaration."): the
	 * context of a shadowing error; origin_what NULL: none */
	Loc origin;
	const char *origin_what;
} VarInfo;

typedef enum EventKind {
	EV_PRINTF,
	EV_PRINT_MAP,
	EV_PRINT_VALUE,
	EV_CLEAR,
	EV_ZERO,
	EV_TIME,
	EV_CAT,
	EV_SYSTEM,
	EV_JOIN,
	EV_EXIT,
	EV_WATCHPOINT, /* internal: FUNC+argN watchpoint's address (u64 after the index) */
	EV_UNWATCH,    /* unwatch(addr) */
	EV_D_PROBE,    /* D: a firing's "CPU ID FUNCTION:NAME" (u64 cpu after the index;
			  id in top, "FUNC:NAME" in text) */
	EV_PRINTA,     /* D: printa([fmt, ]@a) */
	EV_TRUNC,      /* D: trunc(@a[, n]): n is the optional argument */
	EV_NORMALIZE,  /* D: normalize(@a, n) (n the argument), denormalize(@a) (none) */
	EV_SETOPT,     /* D: setopt(text[, text2]) */
	EV_SPEC_COMMIT,  /* D: commit(id): print speculation id's records (id after the index) */
	EV_SPEC_DISCARD, /* D: discard(id): drop them */
	EV_HELPER_ERROR, /* -k/-kk: a helper failed (its return value after the index) */
	EV_D_TRACEMEM,   /* D: tracemem(): u64 bytes to print, then the recorded bytes */
	EV_D_FIRING,     /* D: one firing's records in one ring-buffer record (codegen_firing_d.c):
			    slot i at argoff[i] is a u64 "present" word, then slot_size[i] bytes */
	EV_D_FAULT,      /* D: a run-time fault (codegen_fault_d.c): probe id, clause, pc,
			    fault type, address after the index (DFAULT_REC_SIZE bytes) */
	EV_SKBOUTPUT,    /* skboutput(): sent through the perf buffer (runtime/skb_capture.c), text = the
			  * pcap file; the record is SkbRecord, then the packet's bytes */
	EV_DIAG,         /* errorf()/warnf(): printf's record; the text is a diagnostic on stderr
			  * at loc, of severity text ("ERROR", "WARNING") */
} EventKind;

/* One call site's event: records start with a u64 event index, then the
 * arguments at argoff[i] laid out per argt[i]. */
typedef struct EventDesc {
	EventKind kind;
	const Fmt *fmt;  /* printf, cat, system */
	int nargs;
	Type **argt;
	int *argoff;
	int size;        /* record bytes including the leading index */
	MapInfo *map;    /* print/clear/zero */
	int top, div;    /* print(@m, top, div) */
	const char *text; /* time() format, join() delimiter, setopt() option */
	const char *text2; /* setopt() value, or NULL */
	int value_conv;   /* printa(fmt, @a): the conversion printing the value, or -1 */
	MapInfo **maps;   /* printa(): its aggregations (map is the first) */
	int *slot_size;   /* EV_D_FIRING: each slot's record bytes */
	int nmaps;
	bool from_end;    /* sent by the END probe */
	const ProbeSpec *wp; /* EV_WATCHPOINT: the watchpoint, and its program's */
	int wp_prog;         /* index in Script.progs */
	int helper;          /* EV_HELPER_ERROR: the BPF_FUNC_* that failed */
	Loc loc;             /* EV_HELPER_ERROR, EV_DIAG: where the script called it */
	const ProbeSpec *spec; /* EV_D_FAULT: the probe of the program that faulted */
} EventDesc;

/* The control map's (bpf/program.h: CONTROL_SIZE) words of D: its
 * activity state (D_CTL_STATE); D's speculations keep their drop count and, per buffer 1..nspec, a state
 * word and the bytes recorded so far (dtrace/dfunc_spec.c). */
/* The run's state for a front end whose traced probes wait for BEGIN
 * (CodegenHooks.gate_probes): CTL_RUN_ACTIVE once BEGIN has run */
#define CTL_RUN_STATE 4072
#define CTL_RUN_ACTIVE 1
/* D's drops map: per-CPU counts of updates that found a map full */
#define D_DROP_AGG 0
#define D_DROP_DYNVAR 1
#define D_CTL_DROPS 8
#define D_CTL_SPEC(i) (16 + 16 * (i))
#define D_NSPEC_MAX 250
#define D_CTL_DBLERRORS 4088 /* D: faults in dtrace:::ERROR clauses (not reported through ERROR) */
/* D's activity state (as dtrace-utils'): a traced probe's clauses run only
 * while it is D_STATE_ACTIVE, which sonde sets once BEGIN's clauses have
 * all run, unless one called exit(), which sets D_STATE_DRAINING */
#define D_CTL_STATE 4080
#define D_STATE_INACTIVE 0
#define D_STATE_ACTIVE 1
#define D_STATE_DRAINING 2
#define D_SPEC_FREE 0
#define D_SPEC_ACTIVE 1
/* a speculated record: the id in the upper half of its first word */
#define EVENT_SPEC_SHIFT 32
/* The control page's words are all distinct: the Python walk's generation
 * counter (bpf/program.h's CONTROL_PY_GEN) once shared CTL_RUN_STATE's,
 * and 0.26's gated probes stopped at the first code object a walk met */
_Static_assert(CONTROL_PY_GEN != CTL_RUN_STATE && CONTROL_PY_GEN != D_CTL_STATE &&
		       CONTROL_PY_GEN != D_CTL_DBLERRORS && CONTROL_PY_GEN >= D_CTL_SPEC(D_NSPEC_MAX + 1) &&
		       CTL_RUN_STATE != D_CTL_STATE && CTL_RUN_STATE != D_CTL_DBLERRORS &&
		       CTL_RUN_STATE >= D_CTL_SPEC(D_NSPEC_MAX + 1),
	       "two users of one control-page word");

/* DTrace's fault types: dtrace:::ERROR's arg4 (DTRACEFLT_* in D) */
enum {
	DTRACEFLT_UNKNOWN, DTRACEFLT_BADADDR, DTRACEFLT_BADALIGN, DTRACEFLT_ILLOP,
	DTRACEFLT_DIVZERO, DTRACEFLT_NOSCRATCH, DTRACEFLT_KPRIV, DTRACEFLT_UPRIV,
	DTRACEFLT_TUPOFLOW, DTRACEFLT_BADSTACK, DTRACEFLT_BADSIZE, DTRACEFLT_BADINDEX,
};
/* D: a fault's record, at scratch offset 0 of the faulting program and of
 * the ERROR programs it runs: event index, then ERROR's arg1..arg5 as
 * dtrace-utils passes them (the probe's id, the clause's number, the BPF
 * pc, the fault type, the address) */
#define DFAULT_REC_SIZE 48
/* D: when the script chains clauses on one probe (codegen_chain_d.c), the
 * scratch word after the fault record: the faulting clause's next one on
 * its probe (chain slot + 1, 0: none), for the last ERROR clause */
#define DCHAIN_RESUME_OFF DFAULT_REC_SIZE

typedef struct ProgCode {
	union { /* the code (bpf/program.h), by field or as one BpfProg */
		BpfProg code;
		struct {
			BPF_PROG_FIELDS
		};
	};
	const ProbeSpec *spec;
	const Probe *probe;
	/* D: a dtrace:::ERROR clause's program: its prog array (Script.err_kinds
	 * index) and slot there (the clause's rank among ERROR clauses); -1: not one */
	int err_kind, err_slot;
} ProgCode;

/* What an attach point its provider finds missing does (bpftrace 0.26's
 * missing_probes): MISSING_STOP, the provider's own error (0.17, D);
 * MISSING_ERROR, 0.26's "No matches for TYPE ARGS."; MISSING_WARN, skipped
 * with a warning; MISSING_IGNORE, skipped silently */
typedef enum { MISSING_STOP, MISSING_ERROR, MISSING_WARN, MISSING_IGNORE } MissingProbes;

typedef struct Options {
	Dialect dialect;  /* the script's language (lang/fmt.h) */
	/* the dialect's rules in sema (compile/sema_hooks.h), set with dialect */
	const struct SemaHooks *sema;
	AggOpts agg;      /* D: aggsortkey, aggsortrev, ... (-x, #pragma D option) */
	int strlen_max;   /* BPFTRACE_STRLEN, default 64; D: strsize + 1 (its NUL) */
	/* bpftrace 0.26: str() of an address keeps strlen_max bytes, so a string
	 * that long or longer fills them without a NUL (the printer's sign that
	 * it was cut: RunOpts.str_trailer) */
	bool str_fills;
	int map_keys_max; /* BPFTRACE_MAP_KEYS_MAX, default 4096 */
	MissingProbes missing_probes;
	/* how kstack/ustack print when the call names no mode (bpftrace 0.26's
	 * stack_mode config) */
	StackMode stack_mode;
	char **params;    /* positional parameters $1.. */
	int nparams;
	/* named parameters, "NAME" or "NAME=VALUE" (bpftrace 0.26's `--NAME[=VALUE]`
	 * after `--`), which getopt() reads (builtins/getopt.c) */
	char **named;
	int nnamed;
	/* the scalar map tseries() reads its time from instead of the clock
	 * (bpftrace's BPFTRACE_DUMMY_TS_MAP, which its tests step), or NULL */
	const char *ts_map;
	bool unsafe;
	bool no_user_symbols; /* BPFTRACE_NO_USER_SYMBOLS=1: func in uprobes is an address */
	int helper_check; /* -k: 1 (map updates/deletes...), -kk: 2 (probe reads, lookups too) */
	int cpid;         /* -c child, 0 if none */
	ProbeTarget target; /* -p/-c: the process user-space probes are for */
	/* the target's CPython, looked up before the compile when the script
	 * walks Python stacks (python/py_target.c), else NULL */
	const struct PyTarget *py;
	int self_pid;     /* sonde's pid: its own events are not traced */
	uint64_t start_ns; /* CLOCK_MONOTONIC at start, for `elapsed` */
	char **include_dirs;  /* -I DIR: where #include looks */
	int ninclude_dirs;
	char **include_files; /* --include FILE: headers read before the script */
	int ninclude_files;
	const char *script_dir; /* "" or "dir/": #include "x.h" relative to the script */
	/* D (sonde dtrace): -q / #pragma D option quiet, and every -x OPTION[=VAL]
	 * or pragma as "name" or "name=value" (later ones win), for the
	 * compiler and output to read through options_d_get() */
	bool d_quiet;
	char **d_opts;
	int nd_opts;
	int nspec;        /* D: -x nspec (0: DTrace's 1) */
	int64_t specsize; /* D: -x specsize in bytes (0: DTrace's 4 MiB) */
	const struct CodegenHooks *codegen; /* the front end's (codegen_hooks.h), or NULL */
	/* the run's readers and their caches (sym/symctx.h), required: made once
	 * by the command that starts the run (or the unit test, the fuzzer), read
	 * by sema, the providers, the runtime */
	struct SymCtx *sym;
} Options;

typedef struct Script {
	Program *ast;
	Options opt;
	Arena arena;          /* types, names, event descriptors */
	VEC(MapInfo *) maps;
	StrIndex map_ids;     /* script_map: a map's id by name */
	VEC(EventDesc *) events;
	VEC(ProgCode *) progs;
	ProbeSpecList *specs; /* per probe: its expanded attach points */
	StrBuf rodata;        /* NUL-terminated string constants */
	VEC(Fmt *) fmts;
	VEC(Error) warnings;  /* printed before the program runs */
	int scratch_size;
	int firing_size;  /* D: bytes of the largest clause's firing buffer (0: none) */
	int zero_size;
	bool uses_kstack, uses_ustack;
	const struct PyLayout *py; /* pystack/jstack(): the interpreter's layout, else NULL */
	struct CDefs *cdefs;  /* C definitions of the script (lang/ctypes.h) */
	bool uses_usym;        /* usym(): user symbols resolved at print time */
	bool traced_events;    /* probes other than BEGIN/END send events */
	bool lazy_events;      /* some event does not wake the reader: it polls */
	bool uses_spec;        /* D: a clause calls speculate() */
	bool uses_dscratch;    /* D: copyin/alloca/...: clauses get scratch memory */
	int nattach;          /* "Attaching N probes..." */
	/* D: dtrace:::ERROR clauses run by a tail call from a program that faults,
	 * so each is compiled once per kind of program (type, expected attach
	 * type) the script has: one prog array of nerror slots per kind */
	int nerror;
	struct { enum bpf_prog_type type; uint32_t attach_type; } err_kinds[8];
	int nerr_kinds;
	/* D: clauses run by a tail call from the clause before them on the
	 * same perf-event probe (ProbeSpec.chain_slot): the chain prog array's size */
	int nchain;
	/* per probe: uses `probe` or a tracepoint's `args`, which bpftrace
	 * compiles once per attach point (what BPFTRACE_MAX_BPF_PROGS counts) */
	bool *expands;
} Script;

/* D options: the value of -x NAME=VAL ("" for a bare -x NAME), NULL if unset. */
const char *options_d_get(const Options *o, const char *name);

/* Text -> Script (all passes), reading the readers in opt->sym (which the
 * caller owns; target.sym NULL: the same).  On failure returns NULL with
 * err set. */
Script *compile_program(Program *ast, const Options *opt, Error *err);
void script_free(Script *s);
MapInfo *script_map(Script *s, const char *name, Loc loc);
int script_rodata_add(Script *s, const char *str, size_t len);
int script_rodata_bytes(Script *s, const char *bytes, size_t len);
void script_keep_fmt(Script *s, Fmt *f); /* freed with the script */
