/* bpftrace's command line (sonde [options] FILE | -e PROGRAM | -l): its
 * options as bpftrace parses them, its environment variables, the run.
 *   cli_bt.c   options, usage, environment, output files: bt_cli_main
 *   run_bt.c   compiling and running the program, bpftrace's limits
 *   list_bt.c  -l: a pattern's probes, or a program's
 * main.c dispatches here when no subcommand is named. */
#pragma once
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../compile/script.h"
#include "../runtime/runtime.h"

typedef struct BtCli {
	const char *program;  /* -e */
	const char *file;     /* FILE or "-" */
	bool list;            /* -l [PATTERN] */
	const char *list_pattern; /* NULL: -l alone (every probe) */
	bool list_verbose;
	const char *cmd;      /* -c */
	const char *out_path; /* -o */
	const char *debug;    /* -d ast|bpf|all: sonde's dumps, then exit */
	const char *mode;     /* --mode (0.26): "codegen" compiles and exits */
	const char *probe_filter; /* --probe-filter REGEX (0.26) */
	bool info;
	bool no_warnings; /* --no-warnings */
	uint64_t max_bpf_progs; /* BPFTRACE_MAX_BPF_PROGS */
	uint64_t max_probes;    /* 0.26's max_probes (0: 0.17 reads BPFTRACE_MAX_PROBES late) */
	const char *metrics; /* --metrics ADDR:PORT */
	bool pprof;          /* -f pprof: maps keyed by stacks into the -o file */
	bool verify_ir;      /* --verify-llvm-ir: accepted, sonde has no LLVM IR */
	void (*usage_tail)(FILE *f); /* what -h adds after the options (main.c's subcommands) */
	RunOpts run;
	Options opt;
	const struct BtGeneration *gen; /* SONDE_COMPAT or --compat: 0.26.1 or 0.17 */
} BtCli;

/* `sonde [options] ...`: the exit status.  usage_tail, when not NULL,
 * prints more of the help after bpftrace's options. */
int bt_cli_main(int argc, char **argv, void (*usage_tail)(FILE *f));

/* Compiles and runs c's program (-e or the file); the exit status (run_bt.c) */
int bt_run_program(BtCli *c);
/* The program's text (-e, or the file read; malloc'd) and src's name, or
 * NULL with bpftrace's message (run_bt.c) */
char *bt_load_source(BtCli *c, Source *src);
/* -l [PATTERN], or with the generation's list_program -l with a program
 * (-e or FILE): the probes it would attach (list_bt.c); -p adds its
 * files' uprobes and usdt.  The exit status. */
int bt_list_probes(BtCli *c);
