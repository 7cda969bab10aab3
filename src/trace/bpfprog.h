/* The kernel side of sonde trace: maps and hand-built BPF programs on the
 * raw tracepoints sys_enter/sys_exit (plus sched fork/exit, signal_deliver and
 * any --event tracepoints), loaded and attached with libbpf's low-level API. */
#pragma once
#include <bpf/libbpf.h>
#include <stdbool.h>

#include "../bpf/attach.h"
#include "../sym/tracefs.h"
#include "trace.h"

/* at most this many calls traced on their own tracepoints, else the raw
 * tracepoints (each one a perf event to open, and to close in background) */
#define TRACE_HOOKED_MAX 32
#define TRACE_PROGS_MAX 24 /* the syscall and task programs, then --event's */

enum { TM_PIDS, TM_START, TM_PLAN, TM_SCRATCH, TM_RING, TM_LOST, TM_STATS, TM_HIST, TM_COUNT };

typedef struct TraceEvent {
	char *cat, *name;
	TpFormat fmt;
	int size; /* bytes of the raw record copied */
} TraceEvent;

typedef struct TraceBpf {
	int map_fd[TM_COUNT];
	int capmax;     /* largest capture per argument */
	int scratch_size;
	TraceEvent *events;
	int nevents;
	Attached attached;
	int prog_fds[TRACE_PROGS_MAX];
	int nprogs;
	/* A program on the raw tracepoint sys_enter or sys_exit runs for every
	 * call of every process; one on syscalls:sys_enter_NAME/sys_exit_NAME
	 * tracepoints costs the other calls only a bitmap test.
	 * entry_few: entries seen only for the calls that need them (execve,
	 * exit, rt_sigreturn); entry_tp/exit_tp: the programs are on the
	 * NAME tracepoints of entry_nrs/exit_nrs (few calls traced). */
	bool entry_few, entry_tp, exit_tp;
	bool all; /* system-wide: every process but sonde (tg_traced) */
	int entry_nrs[TRACE_HOOKED_MAX], exit_nrs[TRACE_HOOKED_MAX];
	int nentry, nexit;
} TraceBpf;

/* Create maps, build and load programs.  False with err filled in words. */
bool tbpf_load(TraceBpf *b, const TraceOpts *o, char *err, size_t errlen);
bool tbpf_attach(TraceBpf *b, const TraceOpts *o, char *err, size_t errlen);
bool tbpf_add_pid(TraceBpf *b, int pid);
/* system-wide: every process but this one (sonde) */
bool tbpf_exclude_pid(TraceBpf *b, int pid);
/* Fill the plan map from the options (selection, capture sizes). */
bool tbpf_set_plans(TraceBpf *b, const TraceOpts *o);
uint64_t tbpf_lost(TraceBpf *b);
/* runs of the programs the kernel skipped (one already running on the CPU) */
uint64_t tbpf_missed(TraceBpf *b);
void tbpf_close(TraceBpf *b);
/* Detach in a child that outlives sonde (perf event closes wait for RCU). */
void tbpf_detach_async(TraceBpf *b, int out_fd);
/* How many traced processes remain in the kernel's pid set. */
int tbpf_npids(TraceBpf *b);
