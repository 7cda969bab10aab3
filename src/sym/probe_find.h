/* Probe points (perf probe's syntax) and their places in DWARF, with perf's
 * rules: used by `sonde probe` and by the language's line probes
 * (uprobe:BIN:FUNC:RLN, uprobe:BIN@FILE:LINE). */
#pragma once
#include <stdbool.h>

#include "debuginfo.h"
#include "dwarf_walk.h"

/* A probe point: FUNC[@SRC][:RLN|+OFF|%return|;PTN] or SRC:ALN or SRC;PTN */
typedef struct ProbePoint {
	char *function, *file, *lazy;
	int line;
	unsigned long offset;
	bool retprobe;
} ProbePoint;
/* 0, or a perf status after printing perf's message */
int probe_point_parse(const char *text, ProbePoint *pp);
/* "weigh:4", "@file.c:30": as perf names a point in its messages */
char *probe_point_text(const ProbePoint *pp);

/* A place found for a probe point. */
typedef struct ProbeSite {
	Dwarf_Die cu, sp, scope; /* the real function, the scope (may be inline) */
	Dwarf_Addr addr;
	Dwarf_Op *fb;            /* frame base there, NULL if none */
	const char *symbol;      /* sp's name */
	unsigned long offset;    /* addr - sp's entry */
} ProbeSite;
typedef int (*SiteFn)(ProbeSite *site, void *data);
typedef struct FindOpts {
	bool skip_prologue;      /* -a with arguments in -O0 code, as perf */
} FindOpts;
/* Calls fn for each place of pp; the number of places, or a negative errno. */
int probe_find_sites(DebugInfo *di, const ProbePoint *pp, const FindOpts *o, SiteFn fn, void *data);

/* messages as perf prints them (stderr) */
void probe_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void semantic_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The source file of a line table name (comp_dir/raw), NULL if unreadable. */
char *probe_source_path(const char *raw, const char *comp_dir);
