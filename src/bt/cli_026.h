/* bpftrace 0.26's command line, where it differs from 0.17's (cli_026.c):
 * its long options, -d STAGE, -k, -p's checks. cli_bt.c calls these when
 * the generation's BtCliRules ask for them. */
#pragma once
#include <stdbool.h>

#include "cli_bt.h"

/* 0.26's long options, as getopt_long rows; each `val` is base + its index
 * in the table cli_026.c keeps */
#define BT_LONGOPTS_026(base)                                                                      \
	{"cmd", required_argument, 0, (base) + 0}, {"list", no_argument, 0, (base) + 1},            \
	{"output", required_argument, 0, (base) + 2}, {"pid", required_argument, 0, (base) + 3},     \
	{"quiet", no_argument, 0, (base) + 4}, {"verbose", no_argument, 0, (base) + 5},             \
	{"debug", required_argument, 0, (base) + 6}, {"warnings", no_argument, 0, (base) + 7},       \
	{"dry-run", no_argument, 0, (base) + 8}, {"probe-filter", required_argument, 0, (base) + 9}, \
	{"mode", required_argument, 0, (base) + 10}, {"no-feature", required_argument, 0, (base) + 11}, \
	{"debuginfo", required_argument, 0, (base) + 12},                                            \
	{"traceable-functions", required_argument, 0, (base) + 13},                                  \
	{"fmt", no_argument, 0, (base) + 14}, {"test", no_argument, 0, (base) + 15},                 \
	{"bench", no_argument, 0, (base) + 16}, {"btf", no_argument, 0, (base) + 17}

/* Long option number `which` (named `name`) with getopt's optarg: the short
 * option it stands for ('c', 'l'...) for the caller to handle, 0 when done,
 * -1 after a message (under 0.17 every one of them is unknown) */
int bt_option_026(BtCli *c, int which, const char *name);
/* -d STAGE[,STAGE...]: false after 0.26's message */
bool bt_debug_stages(BtCli *c, const char *arg);
/* -k: 0.17 counts (-k, -kk); 0.26 has one level and refuses -kk */
bool bt_warnings_opt(BtCli *c);
/* -p PID as 0.26 checks it; false after its message */
bool bt_pid_026(const char *s, int *pid);
/* the program's parameters: "--NAME[=VALUE]" ones (only after `--`: before
 * it getopt_long refuses them) to Options.named without the dashes, for
 * getopt(); the rest stay positional ($1...), in order */
void bt_split_named_params(BtCli *c);
