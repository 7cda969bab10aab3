/* The running processes' mapped files, read once per run and shared: the
 * Python stack support asks at compile time which libpython files the
 * processes map (pyfind.c) and at attach time where each process has its
 * interpreter (runtime/pybase.c).  Reading every /proc/PID/maps costs about
 * 0.1 ms a process, so the second asks again only of the processes that may
 * have changed since. */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symctx.h"

/* A file a process maps: where its first mapping starts and ends and that
 * mapping's file offset (the load bias follows from them) */
typedef struct ProcFile {
	uint64_t lo, hi, off;
	bool exec; /* one of its mappings is executable */
	char *path; /* as the maps say it: " (deleted)", "/memfd:..." included */
} ProcFile;

typedef struct ProcMaps {
	int pid;
	char *exe; /* /proc/PID/exe when the maps were read (an exec changes it), or NULL */
	ProcFile *files;
	int n;
} ProcMaps;

/* Every process's mapped files, read by the first call of the run; *n
 * processes. */
const ProcMaps *proc_scan(SymCtx *sc, int *n);

/* The scan brought up to date, the first call of the run reading it whole:
 * processes gone are dropped, new ones read, and those that exec'd since
 * (another /proc/PID/exe) or that stale(entry, arg) says may have changed
 * are read again. */
typedef bool (*ProcStaleFn)(const ProcMaps *m, void *arg);
const ProcMaps *proc_scan_refresh(SymCtx *sc, ProcStaleFn stale, void *arg, int *n);

/* A path that opens f of m's process: its own, or /proc/PID/map_files/LO-HI
 * for a file on no disk (a memfd, a deleted file: a program built at run
 * time is reached through its mapping) */
void proc_file_path(const ProcMaps *m, const ProcFile *f, char *out, size_t n);
