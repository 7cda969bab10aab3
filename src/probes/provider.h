/* Probe providers: one file per probe type behind this small interface.
 * Adding a probe type = one file + one row in provider.c's table. */
#pragma once
#include <linux/bpf.h>
#include <stdbool.h>
#include <stdint.h>

#include "../bpf/attach.h"
#include "../lang/diag.h"
#include "../sym/symctx.h"
#include "../sym/tracefs.h"

struct Provider;

/* How a front end's probes expand, where bpftrace's generations differ
 * (Frontend.probes; NULL: every rule off, as bpftrace 0.17). */
typedef struct ProbeRules {
	/* rawtracepoint: where the kernel has the tracepoint's BTF, a tp_btf
	 * program whose args.NAME are the tracepoint's arguments (bpftrace
	 * 0.26); else a raw tracepoint program with arg0.. only */
	bool rawtp_btf;
	/* begin and end probes are named so (the `probe` builtin), as bpftrace
	 * 0.26 spells them; else BEGIN and END */
	bool lower_special;
} ProbeRules;

/* The process a run traces (-p PID, -c CMD): a run option the providers
 * read while they expand attach points.  It travels with the list they
 * expand into (ProbeSpecList.target), set by probe_expand. */
typedef struct ProbeTarget {
	int filter_pid;  /* user-space probes fire for this process only (0: all) */
	int maps_pid;    /* -p: resolve libraries through /proc/PID/maps (0: none) */
	const char *cmd; /* -c: the command's program as written (its first word), NULL if none */
	SymCtx *sym;     /* the run's readers the providers look in (sym/symctx.h) */
	const ProbeRules *rules; /* the front end's (NULL: none) */
} ProbeTarget;

/* One concrete attach point, after aliases and wildcards are resolved. */
typedef struct ProbeSpec {
	const struct Provider *prov;
	const struct AttachPoint *ap; /* the attach point it was expanded from */
	SymCtx *sym;     /* the run's readers (its list's target.sym): attaching reads them too */
	char *name;      /* canonical, for `probe`: "tracepoint:sched:sched_switch" */
	char *target;    /* tracepoint category, binary path, software event... */
	char *func;      /* tracepoint name, function, ... */
	uint64_t period; /* interval/profile/software: period (ns or count) */
	bool freq;       /* profile:hz: period is a frequency */
	TpFormat tp;     /* tracepoint format (fields, id) */
	Loc loc;
	/* uprobe/uretprobe/usdt */
	uint64_t offset;     /* file offset of the probed instruction */
	uint64_t ref_ctr;    /* usdt: file offset of the semaphore, 0 if none */
	int pid;             /* -p/-c: fire for this process only; -1 = all */
	char *argspec;       /* usdt: the note's argument spec ("-4@%edi 8@%rax") */
	uint64_t cookie;     /* uprobe: the BPF cookie its link carries (bpf_get_attach_cookie) */
	const struct DwarfFunc *dwarf; /* uprobe: the function's parameters from
					* DWARF (args->NAME), kfunc: from BTF;
					* NULL if none */
	/* watchpoint:FUNC+argN (wp_setup set): N, and the uprobe on
	 * FUNC that reports argN to user space, which then opens the
	 * breakpoint (the watchpoint's own attach does nothing) */
	int wp_arg;
	struct ProbeSpec *wp_setup;
	/* kprobe/kretprobe wildcards: the functions one attach point matched
	 * are consecutive specs sharing the first one's program, which
	 * attaches them all (one kprobe_multi link, or one kprobe each) with
	 * each spec's index in the group as its BPF cookie; `probe` and
	 * `func` are read from a table by that cookie. */
	int group_n;    /* in the first spec of a group: how many share its program */
	int group_idx;  /* index in the group; > 0: no program of its own */
	bool multi;     /* the group attaches through one kprobe_multi link */
	char *kmod;     /* kprobe:MODULE:FUNCTION: the module, else NULL */
	uint64_t kaddr; /* a wildcard's vmlinux function: its address, 0 if unknown */
	uint32_t attach_type; /* the program's expected_attach_type (0: none) */
	/* kfunc/kretfunc, iter: the BTF id of the target function (the
	 * program's attach_btf_id); kfunc parameters are in dwarf */
	uint32_t btf_id;
	int btf_obj_fd; /* kfunc on a module's function: its BTF object (attach_btf_obj_fd) */
	char *pin; /* iter:NAME:PIN: the bpffs path the iterator's link is pinned at */
	/* tracepoint:GROUP:EVENT on a uprobe event: a uprobe at its place
	 * (prov is uprobe/uretprobe), args.FIELD from its fetch arguments */
	const struct Uevent *uevent;
	/* uprobe at FUNC+OFFSET or at an address inside FUNC: whether that is
	 * an instruction boundary (x86-64; compile.c refuses the others, or
	 * warns under --unsafe, as bpftrace), and "PATH:FUNC+OFFSET";
	 * INSN_ZERO_SIZE: FUNC's symbol has size 0, so no bound to check
	 * against (refused but under --unsafe, as bpftrace), insn_where FUNC */
	enum { INSN_OK, INSN_MIDDLE, INSN_UNCHECKED, INSN_ZERO_SIZE } insn_check;
	char *insn_where;
	/* D, a provider whose events take one program (Provider.one_prog):
	 * a later clause on the same probe is not attached but runs by a tail
	 * call from the clause before it (codegen_chain_d.c).  chain_slot: its
	 * slot + 1 in the chain prog array (0: attached); chain_next: the next
	 * clause's slot + 1 (0: the last); chain_len: clauses before it */
	int chain_slot, chain_next, chain_len;
} ProbeSpec;

typedef struct ProbeSpecList {
	ProbeSpec *v;
	int n, cap;
	/* why an attach point was dropped without an error (a uprobe function
	 * missing from its file, as bpftrace 0.17 drops it): the first reason */
	char *dropped;
	ProbeTarget target; /* the run's traced process (probe_expand sets it) */
} ProbeSpecList;

/* Where a probe argument lives (usdt): a pt_regs register, optionally
 * plus index * scale and a displacement and then read from user memory,
 * or a constant; then truncated to size bytes and extended per sign. */
typedef struct ArgLoc {
	int reg_off;   /* pt_regs offset of the base register, -1: none */
	int index_off; /* pt_regs offset of the index register, -1: none */
	int scale;
	bool deref;    /* read size bytes at base + index*scale + disp */
	int64_t disp;  /* displacement, or the constant when reg_off < 0 */
	int size;      /* 1, 2, 4 or 8 */
	bool is_signed;
} ArgLoc;

/* What a probe type means to a script, asked by sema and codegen instead of
 * comparing provider names. */

/* Whose memory a probe's arguments point into (bpftrace's address spaces):
 * it decides user or kernel reads, and bpftrace's "Addrspace mismatch". */
typedef enum { SPACE_NONE, SPACE_KERNEL, SPACE_USER } ProbeSpace;

/* What the ctx builtin is. */
typedef enum {
	CTX_NONE, /* not available */
	CTX_REGS, /* struct pt_regs * */
	CTX_PERF, /* struct bpf_perf_event_data * */
	CTX_ITER, /* the iterator's record (struct bpf_iter__NAME *), read as memory */
} ProbeCtxKind;

/* What the args builtin is. */
typedef enum {
	ARGS_NONE,   /* none */
	ARGS_FIELDS, /* the fields of the tracepoint's format (ProbeSpec.tp) */
	ARGS_PARAMS, /* the function's parameters when expand found them (ProbeSpec.dwarf) */
	ARGS_DWARF,  /* the function's parameters from the binary's DWARF (ProbeSpec.dwarf,
		      * else read when needed); at FUNC+OFFSET the variables there, and
		      * locals.NAME: one instruction whose variables DWARF places */
} ProbeArgs;

/* A system call's tracepoint: its record is the call's number, then its six
 * arguments (entry) or its return value (exit), as 8-byte words, and the
 * pointers among them point into the calling process. */
typedef enum { SYSCALL_NONE, SYSCALL_ENTRY, SYSCALL_EXIT } ProbeSyscall;

/* sonde's own probes, attached to no event: BEGIN and END, run once through
 * BPF_PROG_TEST_RUN; self:signal:SIGUSR1 (bpftrace 0.26), run so each time
 * sonde gets SIGUSR1; D's dtrace:::ERROR, tail-called by a program that
 * faults.  SPECIAL_NONE (0) for every other probe. */
typedef enum { SPECIAL_NONE, SPECIAL_BEGIN, SPECIAL_END, SPECIAL_ERROR, SPECIAL_SIGNAL } ProbeSpecial;

/* watchpoint and asyncwatchpoint: hardware breakpoints.  A sync one stops
 * the task that reports a FUNC+argN address (SIGSTOP) until its breakpoint
 * is in place. */
typedef enum { WATCH_NONE, WATCH_SYNC, WATCH_ASYNC } ProbeWatch;

typedef struct Provider {
	const char *name;
	const char *aliases[3];
	enum bpf_prog_type prog_type;
	/* Parse the text after "name:" (whole text for BEGIN/END), expand
	 * wildcards and append the concrete probes to out. */
	bool (*expand)(const char *rest, Loc loc, ProbeSpecList *out, Error *err);
	/* Byte offset in the program context of argument n (arg0..), of the
	 * return value (n == -1), or -1 when the probe type has no such thing. */
	int (*ctx_arg_offset)(const ProbeSpec *p, int n);
	/* Attach a loaded program; on failure write why in words. */
	bool (*attach)(const ProbeSpec *p, int prog_fd, Attached *out, char *err,
		       size_t errlen);
	ProbeSpecial is_special; /* BEGIN/END/ERROR/self: not attached (SPECIAL_NONE: attached) */
	bool special_parts; /* a special probe named with parts (self:signal:SIGUSR1) */
	/* iter: run once after BEGIN, in sonde's own read() of the iterator
	 * (so without the "not sonde itself" filter); sonde then exits */
	bool (*run)(const ProbeSpec *p, int prog_fd, char *err, size_t errlen);
	/* The kernel runs the programs of one event newest first (a uprobe's
	 * consumers are a LIFO list): attached in reverse, so that probes
	 * sharing an event fire in the order the script writes them. */
	bool newest_first;
	/* An event runs one program (perf events): in D, clauses on one probe
	 * become one attachment that runs them in order (codegen_chain_d.c). */
	bool one_prog;
	/* Optional (usdt): argument n's location; false when there is none.
	 * When set, codegen uses it instead of ctx_arg_offset for argN. */
	bool (*arg_loc)(const ProbeSpec *p, int n, ArgLoc *out);

	/* The language's view of the probe type (the enums above). */
	ProbeSpace space; /* where the probed code runs: user for uprobe, uretprobe, usdt */
	ProbeCtxKind ctx;
	ProbeArgs args;
	ProbeWatch watch;
	/* Optional (tracepoint): whether p is a system call's; NULL: never */
	ProbeSyscall (*syscall)(const ProbeSpec *p);
	/* Optional: whether p is a scheduler event, about a task other than
	 * the one running (sched_switch runs in the task leaving the CPU and
	 * tells which one comes in); NULL: never */
	bool (*sched_event)(const ProbeSpec *p);
	bool has_func;     /* func: the probed function (kprobe, uprobe and their returns) */
	bool stack_args;   /* sargN: stops at a function's entry, its stack arguments
			    * above the return address */
	bool can_override; /* override(): bpf_override_return (kprobe) */
	bool can_signal;   /* signal(): to the task the event interrupted (bpftrace: not
			    * in interval, software, hardware, watchpoint probes) */
	bool takes_path;   /* its first part is a file's path, '/'s and all
			    * (uprobe:bin/x:f, as bpftrace reads it) */
	/* Optional: the probe type's name as bpftrace 0.26's probetype()
	 * gives it, when it is not name (kfunc: "fentry") */
	const char *type_name;
} Provider;

/* Whether p is a system call's tracepoint (Provider.syscall). */
ProbeSyscall probe_syscall(const ProbeSpec *p);
/* Whether sonde leaves out p's events in its own process (its system
 * calls, its output's writes: every printed line would make another
 * event).  Not a scheduler event's: its running task may be sonde while it
 * is about another one (the task sched_switch brings in after sonde), as
 * bpftrace sees them. */
bool probe_skips_self(const ProbeSpec *p);
/* Where p's arguments point: the calling process for a system call's
 * tracepoint, else the provider's space. */
ProbeSpace probe_args_space(const ProbeSpec *p);

/* Split "type:rest" and expand through the matching provider, for the
 * process target names, with the readers in target->sym. */
bool probe_expand(const char *text, Loc loc, const ProbeTarget *target, ProbeSpecList *out,
		  Error *err);
const Provider *provider_find(const char *name);
/* "unknown probe type 'TYPE' in 'TEXT' (try ...)": false, err set */
bool probe_type_unknown(const char *type, const char *text, Loc loc, Error *err);

/* sonde -l [PATTERN] / -lv: bpftrace's listing of tracepoints, software
 * and hardware events, kprobes (when the kernel has them) and, only when
 * asked for by type, rawtracepoints.  PATTERN may be
 * "tracepoint:sched:*", "t:syscalls:sys_enter_open*", "software:*",
 * "*sched_switch*" or NULL for all.  verbose prints tracepoint args as
 * bpftrace -lv does; target is the -p process uprobe/usdt patterns are
 * looked up in (maps_pid 0: none) and the run's readers (target->sym).  Returns the number of probes printed, or -1
 * (with a message on stderr) for a malformed pattern. */
typedef struct ProbeListRules {
	/* interval:/profile: list their units ("interval:hz:", ... "interval:us:"), as
	 * bpftrace 0.26 (0.17 lists nothing for them) */
	bool timer_units;
	/* a globbed type ("-l" alone, "*:...") lists rawtracepoints too, as 0.26 */
	bool glob_rawtracepoints;
	/* -lv rawtracepoint:NAME lists its arguments from BTF, as 0.26 */
	bool rawtp_btf_args;
	/* the kernel's functions are listed as fentry:MODULE:NAME, and
	 * fentry:/fexit: (kfunc:/kretfunc:, f:/fr:) list them, as 0.26 */
	bool fentry_names;
} ProbeListRules;
/* rules: the front end's (NULL: every rule off, as bpftrace 0.17) */
int probe_list(FILE *out, const char *pattern, bool verbose, const ProbeTarget *target,
	       const ProbeListRules *rules);

/* D's dtrace:::ERROR as a program of this type (not in the table: the
 * bpftrace language has no such probe); NULL for a type it cannot be */
const Provider *provider_error(enum bpf_prog_type type);
void probe_spec_list_free(ProbeSpecList *l);
ProbeSpec *probe_spec_add(ProbeSpecList *l, const Provider *prov, Loc loc);

/* A uprobe a USDT probe needs beside its own for the program it traces to
 * fire it: a runtime's quirk, registered (at start-up) by the layer that
 * knows that runtime (python/usdt_py.c: CPython 3.11's line semaphore).
 * extra fills *extra from p (a copy of p at another offset and semaphore,
 * to which no program is attached) and says whether p needs it; attached
 * is told when that uprobe is in place (its note to the user), or NULL. */
typedef struct UsdtCompanion {
	bool (*extra)(const ProbeSpec *p, ProbeSpec *extra);
	void (*attached)(const ProbeSpec *p);
} UsdtCompanion;
void usdt_companion_register(const UsdtCompanion *c);

/* pt_regs (x86_64) offsets of the argument registers, shared by the
 * providers whose context is or starts with pt_regs. */
int regs_arg_offset(int n);
/* One perf event per CPU 0..ncpu-1 (offline CPUs skipped), each with prog_fd. */
/* a hardware or software event's count: digits, or bpftrace's scientific
 * form (1e6, 5e3); false for anything else or 0 (provider_hardware.c) */
bool probe_count_parse(const char *s, uint64_t *out);
bool attach_perf_cpus(uint32_t type, uint64_t config, const ProbeSpec *p, int prog_fd, int ncpu,
		      Attached *out, char *err, size_t errlen);
/* ctx_arg_offset of perf-event programs (bpf_perf_event_data starts with pt_regs);
 * -1 for the return value: none */
int perf_ctx_arg_offset(const ProbeSpec *p, int n);
/* watchpoint:FUNC+argN at run time: watch addr for the spec's process with
 * the watchpoint's program (provider_watchpoint.c). */
/* What bpftrace says when no hardware debug register is left (ENOSPC). */
#define WATCHPOINT_NO_REGISTERS \
	"Failed to attach watchpoint probe. You are out of watchpoint registers."
bool watchpoint_attach_addr(const ProbeSpec *p, uint64_t addr, int prog_fd, Attached *out,
			    char *err, size_t errlen);
