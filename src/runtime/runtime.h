/* Running a compiled script: create maps, load and attach programs, run
 * BEGIN, consume events until exit, detach, run END, print the maps. */
#pragma once
#include <bpf/libbpf.h>
#include <stdbool.h>
#include <stdio.h>

#include "../bpf/emit.h"
#include "../compile/script.h"
#include "../sym/pylayout.h"
#include "frontend_rt.h"
#include "output.h"

typedef enum Buffering { BUF_DEFAULT, BUF_NONE, BUF_LINE, BUF_FULL } Buffering;

struct Runtime;

/* Something the event loop serves while the script runs, given by the
 * command (main.c: export/'s metrics server for --metrics).  started once
 * the programs are loaded and before they are attached (a port in use
 * fails the run before any probe fires); its fd (an epoll set of its own)
 * is watched with the event ring, and `ready` does what it can without
 * blocking; stopped at every way out of the run. */
typedef struct RunService {
	void *self;
	bool (*start)(void *self, struct Runtime *rt, char *err, size_t errlen);
	int (*fd)(void *self);
	void (*ready)(void *self);
	void (*stop)(void *self);
} RunService;

/* Where maps go at exit instead of being printed (main.c: export/'s pprof
 * writer for -f pprof): take() says whether it took map m (the others print
 * as usual), done() once after the last map (false: err says why). */
typedef struct MapsSink {
	void *self;
	bool (*take)(void *self, const OutCtx *o, const MapDesc *m);
	bool (*done)(void *self, char *err, size_t errlen);
} MapsSink;

typedef struct RunOpts {
	bool quiet;       /* -q: no "Attaching N probes..." */
	bool no_warnings; /* --no-warnings: warnf() prints nothing */
	/* __BPFTRACE_NOTIFY_PROBES_ATTACHED in the environment: print that line
	 * on stdout once every probe is attached (bpftrace's test engine and
	 * tools wait for it) */
	bool notify_attached;
	bool verbose;     /* -v: verifier logs */
	bool dry_run;     /* --dry-run: stop once every probe is attached */
	bool no_maps_at_exit; /* bpftrace 0.26's print_maps_on_exit = 0 */
	OutFormat fmt;
	FILE *out;
	Buffering buffering;
	char **cmd_argv;  /* -c: the command, NULL if none */
	int child_pid;    /* -c: forked and stopped (SIGSTOP) until the probes are attached */
	int watch_pid;    /* -p: stop when this process exits */
	size_t cat_bytes_max; /* BPFTRACE_CAT_BYTES_MAX: cat() prints at most this */
	const char *str_trailer; /* bpftrace 0.26's str_trunc_trailer, or NULL (OutCtx's) */
	uint64_t rb_pages;    /* BPFTRACE_PERF_RB_PAGES: pages per CPU, 0 = sonde's size */
	bool rb_pages_set;
	/* D's switchrate, aggrate, statusrate in ns (0: sonde's, every wake-up):
	 * how often the event ring is read, aggregation drops and the other
	 * drops and faults are looked at */
	int64_t switch_ns, agg_ns, status_ns;
	const FrontendRt *fe; /* the front end's hooks (main.c, dtrace/d_cli.c), or NULL */
	const RunService *service; /* --metrics' server, or NULL */
	const MapsSink *maps_sink;  /* -f pprof's writer, or NULL */
} RunOpts;

/* A watched address and its fds in Runtime.attached (first, n): from a
 * FUNC+argN probe (event index id) or a watchpoint:ADDR probe (id -1). */
typedef struct WatchedAddr {
	uint64_t id, addr;
	int first, n;
} WatchedAddr;

typedef struct SkbCapture SkbCapture; /* skboutput()'s perf buffer and pcap files */

/* Python stacks' own programs (pycode.c, pybase.c): code_dealloc's, the
 * fork, exec and exit keepers of sonde_pybase, and Py_InitializeFromConfig's
 * (one for every PyLayout file) */
enum { PYPROG_DEALLOC, PYPROG_FORK, PYPROG_EXEC, PYPROG_EXIT, PYPROG_INIT, PYPROGS };

typedef struct Runtime {
	Script *sc;
	RunOpts opt;
	OutCtx out;
	MapDesc *maps;
	int ringbuf_fd, scratch_fd, zero_fd, rodata_fd, lost_fd, control_fd;
	int pycode_fd, pylive_fd, pybase_fd; /* Python stacks' maps (pycode.c), or -1 */
	int pyprog_fds[PYPROGS];              /* and their programs, or -1 */
	int kstack_fds[STACK_DEPTH_MAX + 1], ustack_fds[STACK_DEPTH_MAX + 1]; /* by depth */
	int bstack_fds[STACK_DEPTH_MAX + 1]; /* ustack(build_id)'s, by depth */
	int firing_fd; /* D: the per-CPU firing buffers, or -1 */
	int chain_fd;  /* D: the clauses chained on one perf-event probe (R_CHAIN), or -1 */
	volatile uint64_t *control; /* mmapped control map: [0] = exit() called (D_CTL_*) */
	struct ring_buffer *rb;
	Attached attached;
	bool exit_requested;
	bool ending;       /* after exit: only END's events are shown */
	bool flush_pending;
	uint64_t read_until_ns; /* the event loop's slice of reading the ring ends then (0: none) */
	int64_t drain_left;     /* after the end: bytes of the ring still owed, else -1 */
	uint64_t drain_lost;    /* owed events not printed in time, counted as lost */
	int exit_status;   /* the status the front end asks for (D: exit(N)'s N) */
	/* the front end's own state for the run (D's: dtrace/runtime_d.h),
	 * made by the front end on its first use and freed by its after_maps */
	void *fe_state;
	StrBuf line; /* reused for formatting each event */
	VEC(WatchedAddr) watched; /* watchpoints in place, for unwatch() and "watched once" */
	int wp_stopped;           /* a task a sync FUNC+argN watchpoint stopped, to resume */
	int errprog_fd[8];      /* D: per Script.err_kinds, the ERROR programs' prog array, or -1 */
	int drops_fd;          /* per-CPU failed map updates (D_DROP_*), or -1 */
	int perfbuf_fd;        /* skboutput(): the perf event array, or -1 */
	SkbCapture *skb;       /* skboutput(): its reader (skb_capture.c), or NULL */
	int child_status;      /* -c: its wait status once reaped, else -1 */
	bool service_started;  /* opt.service was started: stop it on the way out */
} Runtime;

/* What woke the event loop (epoll data): the event ring, a signal, the
 * -p process's end, the RunService's work, or a new mapping in the traced process (maps_watch.c:
 * WAKE_MAPS + the index of its event). */
enum { WAKE_RING, WAKE_SIGNAL, WAKE_PID, WAKE_SERVICE, WAKE_MAPS };

/* New executable mappings of a traced process, reported through perf
 * events (maps_watch.c) so that its /proc/PID/maps is read again only then. */
typedef struct MapsWatch {
	int *fds;
	void **rings;
	int n;
} MapsWatch;

/* all_threads: every thread of a running process (-p), else a -c child
 * that has not started yet.  False: not watched (read the maps by polling). */
bool maps_watch_open(MapsWatch *w, int pid, bool all_threads, int epfd);
/* event i became ready (epoll events): consume its ring */
void maps_watch_ready(MapsWatch *w, int i, uint32_t events, int epfd);
void maps_watch_close(MapsWatch *w);

/* Events the ring lost (it was full), summed over the CPUs */
uint64_t runtime_lost_events(const Runtime *rt);

/* Returns the process exit status; errors are printed to stderr. */
int runtime_run(Script *sc, const RunOpts *opt);
/* -c CMD, split into argv by the front end: forked now and stopped before
 * its exec until the probes are attached (util/proc.h spawn_stopped;
 * fail_fmt is what the child prints when exec fails), recorded in opt
 * (target.cmd, cpid) and run (child_pid).  False when it could not be
 * forked. */
bool runtime_hold_child(char *const argv[], const char *fail_fmt, Options *opt, RunOpts *run);

/* Python stacks' code-object cache (pycode.c), when the script walks
 * them: its maps, the probe that sees code objects freed (loaded, then
 * attached before the script's probes), closed with the rest */
bool pycode_create_maps(struct Runtime *rt, char *err, size_t errlen);
bool pycode_load(struct Runtime *rt, char *err, size_t errlen);
bool pycode_attach(struct Runtime *rt, char *err, size_t errlen);
void pycode_close(struct Runtime *rt);
/* c (assembled when ok) loaded as a program of type, its sonde_pylive and
 * sonde_pybase relocations made; the fd, else -1 with err saying what */
int pycode_load_prog(struct Runtime *rt, BpfCode *c, bool ok, int type, const char *what, char *err,
		     size_t errlen);
/* sonde_pybase's keepers (pybase.c), when the interpreter's addresses
 * differ per process (PyLayout.nfiles): loaded, then attached with the
 * running processes' entries filled */
bool pybase_load(struct Runtime *rt, char *err, size_t errlen);
bool pybase_attach(struct Runtime *rt, char *err, size_t errlen);

/* pieces, for tests and the loader */
bool loader_create_maps(Runtime *rt, char *err, size_t errlen);
/* BPFTRACE_PERF_RB_PAGES: the ring buffer's bytes for that many pages per
 * CPU (a power of two, as bpftrace's perf buffers), or 0 when it cannot be */
uint64_t loader_ringbuf_size(uint64_t pages_per_cpu);
bool loader_load_programs(Runtime *rt, char *err, size_t errlen);
bool loader_attach_all(Runtime *rt, char *err, size_t errlen);
void loader_close(Runtime *rt);
int events_handle(void *ctx, void *data, size_t size);
/* -k/-kk: an EV_HELPER_ERROR record as bpftrace's warning (helper_error.c) */
void helper_error_print(Runtime *rt, const EventDesc *ev, const uint8_t *data);
/* Once the run ended, whether the events still owed print (DRAIN_PRINT),
 * or, after a while, are counted as lost (DRAIN_COUNT) or, after a
 * signal, no longer read (DRAIN_STOP) */
typedef enum { DRAIN_PRINT, DRAIN_COUNT, DRAIN_STOP } DrainState;
DrainState session_drain_overdue(void);
/* Watchpoints at run time (watchpoints.c): FUNC+argN's address arrives
 * (attach it), unwatch(addr), a watchpoint:ADDR probe just attached
 * (first: its first fd in rt->attached), the stopped task resumed once the
 * events its stop produced are read, and at the end. */
void watchpoint_event(Runtime *rt, uint64_t id, const EventDesc *ev, const uint8_t *data,
		      size_t size);
void watchpoint_unwatch(Runtime *rt, uint64_t addr);
void watchpoint_note_static(Runtime *rt, const ProbeSpec *p, int first);
void watchpoint_resume(Runtime *rt);
void watchpoint_continue(Runtime *rt);
