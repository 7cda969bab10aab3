/* sonde: the command.  `sonde NAME ...` runs a subcommand, sonde installed
 * as dtrace(1) is `sonde dtrace`, anything else is bpftrace's command line
 * (bt/cli_bt.c). */
#include <stdio.h>
#include <string.h>

#include "bt/cli_bt.h"
#include "dtrace/dtrace.h"
#include "flame/flame.h"
#include "probe/probe.h"
#include "trace/trace.h"
#include "util/phase_time.h"


/* Subcommands: `sonde NAME ARGS...` runs NAME's main with argv[0] = NAME.
 * A new subcommand is one line here; `sonde -h` lists them. */
static const struct subcommand {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *what;
} subcommands[] = {
	{ "trace", trace_main, "trace system calls and signals as strace does, on BPF" },
	{ "flamegraph", flamegraph_main, "sample stacks and draw an interactive SVG flame graph" },
	{ "probe", probe_main, "source lines, variables and uprobe events from DWARF, as perf probe" },
	{ "dtrace", dtrace_main, "DTrace's D language and dtrace(1)'s options, on sonde's compiler" },
};

static const struct subcommand *subcommand_find(const char *name)
{
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (!strcmp(subcommands[i].name, name))
			return &subcommands[i];
	return NULL;
}

static void subcommands_usage(FILE *f)
{
	fputs("\nSUBCOMMANDS:\n", f);
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(f, "    sonde %-10s %s (sonde %s -h)\n", subcommands[i].name, subcommands[i].what,
			subcommands[i].name);
}

int main(int argc, char **argv)
{
	phase_time("main");
	const char *base = strrchr(argv[0], '/');
	if (!strcmp(base ? base + 1 : argv[0], "dtrace")) /* installed as dtrace(1) */
		return dtrace_main(argc, argv);
	const struct subcommand *sub = argc >= 2 ? subcommand_find(argv[1]) : NULL;
	if (sub)
		return sub->main(argc - 1, argv + 1);
	return bt_cli_main(argc, argv, subcommands_usage);
}
