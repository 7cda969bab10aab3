/* Turning records into strace's lines; the -c summary and --hist. */
#pragma once
#include <stdio.h>

#include "../util/util.h"
#include "bpfprog.h"
#include "trace.h"

typedef struct FdName {
	uint32_t tgid;
	int fd;
	char *path;
} FdName;

/* a netlink socket's protocol (socket(AF_NETLINK, ..., proto) seen, or
 * /proc/PID/net/netlink while live) */
typedef struct FdProto {
	uint32_t tgid;
	int fd;
	int proto;
} FdProto;

typedef struct Pending {
	uint32_t tid;
	void *rec; /* a REC_ENTER record waiting for its REC_EXIT */
	size_t size;
	bool unfinished; /* blocked: its "<unfinished ...>" line is out */
} Pending;

/* a thread's last call shown (printer_restart.c) */
typedef struct TidCall {
	uint32_t tid;
	uint16_t nr;
} TidCall;

struct NrInfo;

typedef struct Printer {
	const TraceOpts *o;
	struct NrInfo *nr_info; /* per syscall number: name, signature (printer_call.c) */
	FILE *out;
	StrBuf line;
	int main_pid;
	bool live;             /* /proc may be consulted for -y */
	int64_t mono_to_real;  /* add to a CLOCK_MONOTONIC ns for wall time */
	uint64_t last_ts;      /* -r */
	VEC(Pending) pending;
	VEC(Pending) deferred; /* signals to print after their thread's current call */
	VEC(Pending) blocked;  /* REC_BLOCK entries of calls not returned yet (-f) */
	VEC(FdName) fds;
	VEC(FdName) cwds;      /* -y: working directories by tgid (fd unused) */
	VEC(FdProto) nlsocks;  /* netlink sockets: their messages are decoded */
	VEC(TidCall) restarts; /* what each thread's restart_syscall resumes */
	bool restart_shown;    /* restart_syscall is traced: restarts is kept */
	char *start_cwd;       /* -y: sonde's, which the command it starts inherits */
	TraceEvent *events;    /* --event formats, by record nr */
	int nevents;
	TraceStat stats[SYSCALL_MAX]; /* -C and report -c */
	int exit_status;       /* of main_pid, from REC_PROC_EXIT (wait status) */
	bool main_exited;
	bool nonmain_seen;
	/* the command sonde started, until its execve: what it does before
	 * (waiting for the probes, which a child scheduled late does traced)
	 * is sonde's, not shown, as strace shows none */
	uint32_t await_exec;
	/* tasks traced now, for strace's "[pid N] " prefix (more than one);
	 * children forked but not counted until their first line or their
	 * parent's clone line (strace counts a child once the clone returns) */
	int nprocs;
	uint32_t newborn[64];
	int nnewborn;
	/* the tasks followed, in strace's order (printer_tasks.c), and
	 * whether its "Process N attached/detached" messages are printed */
	VEC(uint32_t) tasks;
	bool attach_msgs;
} Printer;

void printer_init(Printer *p, const TraceOpts *o, FILE *out);
void printer_free(Printer *p);
/* One record; returns false for a malformed one.  Lines are buffered:
 * printer_flush writes them to out (before anything else writes there). */
void printer_flush(Printer *p);
bool printer_record(Printer *p, const void *data, size_t size);
/* Whether a record is of the command sonde started before its execve
 * (await_exec), not to be shown; its execve (entry, or REC_EXEC when -e
 * leaves execve out) ends that.  Its exit still counts. */
bool printer_before_exec(Printer *p, const TraceHdr *h);
/* printer_tasks.c: the -p processes (with their threads under -f) are
 * followed from now on: "Process N attached"; the command sonde started
 * is, silently; REC_FORK and REC_PROC_EXIT records start and end tasks
 * (printer_record does it; record's own loop calls printer_track_task);
 * printer_detach_all on an interruption: "Process N detached" for each
 * task still there.  Messages go to stderr, in the line buffer when the
 * trace goes there too. */
void printer_attach_pids(Printer *p, const int *pids, int npids);
void printer_command_started(Printer *p, int pid);
void printer_track_task(Printer *p, const TraceHdr *h);
void printer_detach_all(Printer *p);
/* Format one complete call (header + captures) without printing: tests. */
void printer_format_call(Printer *p, StrBuf *b, const TraceHdr *h, const uint8_t *data);

/* -y: an fd's name (record files' CHUNK_FDNAME) */
void printer_set_fd_name(Printer *p, uint32_t tgid, int fd, const char *path);
/* record: follow fds through a record (open, close) and name from /proc
 * each fd argument not named yet, passing the new names to cb */
/* -y: the names of the fds pid has now (at_exec: those its execve keeps,
 * for a command held before it), so that fds it inherited are named even
 * if it exits before its calls are printed; cb as printer_learn_fds's */
void printer_snapshot_fds(Printer *p, uint32_t pid, bool at_exec,
			  void (*cb)(void *ctx, uint32_t tgid, int fd, const char *path), void *ctx);
void printer_learn_fds(Printer *p, const void *data, size_t size,
		       void (*cb)(void *ctx, uint32_t tgid, int fd, const char *path), void *ctx);

/* strace -c's table from counters (ns per syscall) */
void summary_print(FILE *out, const TraceStat *st, bool sort_calls);
/* --hist: per-syscall log2 histograms of latency (buckets per syscall) */
void hist_print(FILE *out, const uint64_t *hist, const TraceStat *st);
