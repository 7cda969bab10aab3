/* bpftrace's generations.  sonde's bpftrace front end speaks the language
 * and output of bpftrace 0.26.1 by default, or of bpftrace 0.17 exactly
 * with SONDE_COMPAT=0.17 in the environment (or --compat=0.17).  The
 * choice is made here once: a generation is the set of rules and hooks the
 * front end hands the core (the parser's ParseOpts, the sema and runtime
 * hook tables); the core reads those, never the generation. */
#pragma once
#include <stdio.h>

#include "../runtime/frontend.h"

/* What a generation's command line accepts and prints (cli_bt.c, usage_bt.c) */
typedef struct BtCliRules {
	/* 0.26's long options (--cmd, --list, --pid, --output, --quiet,
	 * --verbose, --debug), its --dry-run, --probe-filter, --mode,
	 * --no-feature, --debuginfo, --traceable-functions, --warnings */
	bool long_options;
	/* -d STAGE[,STAGE...] as 0.26 names the stages; else 0.17's -d, -dd */
	bool debug_stages;
	/* -p as 0.26 checks it ("Pid out of range", "Failed to parse pid") */
	bool pid_words_026;
	/* settings are 0.26's config variables (a script's config block, then
	 * BPFTRACE_<NAME>: bt/config_bt.c), else 0.17's environment variables */
	bool config_vars;
	/* the program's parameters that start with "--" are named ones, for
	 * getopt() (`-- --NAME=VALUE`), the others positional ($1...) */
	bool named_params;
	/* -l with a program (-e, or a FILE.bt pattern) lists the probes it
	 * would attach, as 0.26 (0.17: -l takes a pattern only) */
	bool list_program;
	/* what -l lists (probes/provider.h; NULL: 0.17's) */
	const struct ProbeListRules *list_rules;
	void (*usage)(FILE *f);
	void (*version)(FILE *f);
} BtCliRules;

typedef struct BtGeneration {
	const char *name; /* "0.26.1", "0.17" */
	Frontend fe;      /* its parse rules, sema, code and runtime hooks */
	const BtCliRules *cli; /* its command line */
} BtGeneration;

/* "0.17" (or "0.17.x"), "0.26" (or "0.26.x"); NULL for any other */
const BtGeneration *bt_generation_named(const char *name);
/* SONDE_COMPAT's, or 0.26.1's when unset or empty; NULL (message printed)
 * when SONDE_COMPAT names no generation */
const BtGeneration *bt_generation_from_env(void);
/* "ERROR: unknown bpftrace generation 'X' (SONDE_COMPAT / --compat): ..." */
void bt_generation_unknown(const char *what, const char *name);
