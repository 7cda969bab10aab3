/* sonde trace's command line: the options as parsed, shared by the live
 * run (trace_main.c) and report (trace_report.c). */
#pragma once
#include <stdbool.h>
#include <stdio.h>

#include "trace.h"

enum { O_HIST = 300, O_DURATION, O_EVENT, O_NOSYS };

typedef struct Cli {
	TraceOpts o;
	char **cmd;
	bool sort_calls;
	const char *report_file;
	bool record;
} Cli;

/* Parse argv (after "trace", and after "record"/"report").  Returns -1 to
 * go on, else the exit status (usage printed, or an error said). */
int trace_parse(int argc, char **argv, Cli *c, bool report);
/* sonde trace report FILE: prints a recording; returns the exit status */
int trace_run_report(Cli *c);
