/* sonde trace: what the kernel programs and user space share (record and
 * plan layouts), and the options of a run. */
#pragma once
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "syscalls.h"

/* Ring-buffer records, all starting with TraceHdr. */
enum {
	REC_SYSCALL = 1, /* a complete call, sent at its exit */
	REC_ENTER = 2,   /* arguments sent at entry (execve, exit_group...) */
	REC_EXIT = 3,    /* the return of a call sent as REC_ENTER */
	REC_PROC_EXIT = 4,
	REC_SIGNAL = 5,
	REC_FORK = 6,
	REC_EVENT = 7,   /* --event tracepoint: raw record follows */
	REC_BLOCK = 8,   /* entry of a call that may block (-f): its arguments,
			  * captures taken at entry; the REC_SYSCALL follows */
	REC_EXEC = 9,    /* sched_process_exec: a traced process has a new image
			  * (only while a command is started; never recorded) */
};
/* REC_SIGNAL: nr says where the signal was seen */
enum {
	SIG_DELIVERED = 0,       /* signal_deliver: the thread takes it now */
	SIG_IGNORED = 1,         /* signal_generate, dropped as ignored */
	SIG_IGNORED_IN_CALL = 2, /* the same while the target is in a traced call:
				  * strace shows it after that call returns */
};

typedef struct TraceHdr {
	uint16_t type;
	uint16_t nr;   /* syscall number, or --event index */
	uint32_t tid;
	uint32_t tgid;
	uint32_t len;  /* bytes of captured data after the record */
	uint64_t ts;   /* CLOCK_MONOTONIC ns at entry */
	uint64_t dur;  /* ns in the call (REC_SYSCALL, REC_EXIT) */
	int64_t ret;   /* return value; exit code for REC_PROC_EXIT; signal for REC_SIGNAL */
	uint64_t args[6];
	uint16_t cap[6]; /* captured bytes per argument, in order after the header */
	uint32_t aux;    /* REC_SIGNAL: si_code; REC_FORK: child pid */
} TraceHdr;

#define TRACE_HDR_SIZE ((int)sizeof(TraceHdr)) /* 104 */
#define CAP_FAILED 0xffff /* cap[i]: the read faulted */

/* Capture plan, one per syscall number (an array map the programs read). */
enum {
	CAP_NONE = 0,
	CAP_STR,     /* NUL-terminated string, up to size */
	CAP_BUF_ARG, /* min(args[lenarg] << shift, size) bytes */
	CAP_BUF_RET, /* min(ret << shift, size) bytes when ret > 0 */
	CAP_FIXED,   /* size bytes */
	CAP_FIXED_OK,/* size bytes when ret >= 0 */
	CAP_ARGV,    /* char *[]: up to 16 strings, each up to size, NUL-separated */
	CAP_ENVP,    /* char *[] for its count: the pointers, in 256-byte reads
		      * while they succeed, at most ENVP_CHUNKS of them */
	/* struct iovec[args[lenarg]] (argument 1 only): up to IOV_CAP entries,
	 * each {u64 base, u64 len, u16 n, n bytes of data (n <= size)}; _OUT:
	 * data up to ret bytes in all (readv), nothing when ret <= 0 */
	CAP_IOV_IN,
	CAP_IOV_OUT,
	/* struct msghdr (argument 1 only): its 56 bytes, {u16 n, n bytes of
	 * msg_name (n <= 128)}, then its msg_iov as CAP_IOV_* */
	CAP_MSG_IN,
	CAP_MSG_OUT,
	/* size bytes, fewer when the page they start in ends first (a value
	 * or a short string at the end of a mapping, read whole as strace
	 * reads it) */
	CAP_UPTO,
	/* 4 bytes: what args[entry_arg] pointed to at the call's entry (an
	 * in/out length: strace's [110 => 24]), read by the entry program */
	CAP_ENTRY,
};
#define IOV_CAP 8
#define ENVP_CHUNKS 16
enum { PLAN_TRACED = 1, PLAN_AT_ENTRY = 2, PLAN_SMALL = 4 /* see SMALL_CAP */,
       PLAN_BLOCKS = 8 /* -f: a REC_BLOCK at entry */,
       PLAN_CHILD0 = 16 /* fork family: a 0 return is the child's, not shown */,
       PLAN_ENTRY_READ = 32 /* the entry reads what args[entry_arg] points to (CAP_ENTRY) */ };

typedef struct TracePlan {
	uint8_t flags;
	uint8_t kind[6];
	uint8_t lenarg[6];
	uint8_t shift[6];
	uint8_t entry_arg;
	uint8_t pad[4];
	uint16_t size[6];
} TracePlan; /* 36 bytes */

/* Per-syscall counters for -c (per-CPU, summed by user space). */
typedef struct TraceStat {
	uint64_t calls, errors, ns;
} TraceStat;
#define TRACE_HIST_BUCKETS 40 /* log2 ns buckets for --hist */

typedef struct TraceOpts {
	bool follow;         /* -f */
	bool only_ok, only_fail; /* -z, -Z */
	bool show_time;      /* -T */
	int tstamp;          /* -t 1, -tt 2, -ttt 3 */
	bool relative;       /* -r */
	bool fd_paths;       /* -y */
	int strsize;         /* -s */
	bool count;          /* -c */
	bool count_and_print;/* -C */
	bool hist;           /* --hist */
	uint64_t min_dur_ns; /* --duration */
	bool no_syscalls;
	bool sel[SYSCALL_MAX];
	char **events;       /* --event CAT:NAME */
	int nevents;
	bool system_wide;    /* -a, or neither a command nor -p */
	int *pids;           /* -p */
	int npids;
	const char *out_path;
	const char *record_path; /* trace record -o */
	bool verbose;
	bool quiet;          /* -q: no attach/detach messages */
} TraceOpts;

int trace_main(int argc, char **argv);
