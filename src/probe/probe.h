/* sonde probe: perf probe's source lines, variables and uprobe events from
 * DWARF.  What the files of src/probe/ share. */
#pragma once
#include <stdbool.h>
#include <stdio.h>

#include "../dwarf/debuginfo.h"
#include "../dwarf/dwarf_walk.h"

/* perf's status for an error: a negative errno (the exit status is its
 * low byte, as perf's) */
#define PROBE_ERR(e) (-(e))

/* --filter / -F: perf's strfilter, globs with ! & | ( ) */
typedef struct StrFilter StrFilter;
/* filter OR expr (filter may be NULL); NULL and *err set on a syntax error */
StrFilter *strfilter_or(StrFilter *f, const char *expr, const char **err);
bool strfilter_match(const StrFilter *f, const char *s);

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

typedef struct ProbeCtx {
	const char *exec;   /* -x (absolute), NULL: the kernel */
	DebugInfo *di;
	StrFilter *filter;
	bool externs;       /* --externs */
	bool no_inlines;
} ProbeCtx;

int probe_show_funcs(ProbeCtx *c);                 /* -F */
/* When DWARF has no function of that name, perf's second try: the point
 * the symbol's address reverses to (an alias such as malloc ->
 * __libc_malloc); 0 and *out, or a perf status. */
int probe_alternative(ProbeCtx *c, const ProbePoint *pp, ProbePoint *out);
/* The file offset of the symbol name (as perf keeps it); false if none. */
bool probe_symbol_offset(DebugInfo *di, const char *name, Dwarf_Addr *off);
/* The point (FUNC:RLN or FUNC+OFF, @FILE) an address reverses to. */
int probe_reverse_point(DebugInfo *di, Dwarf_Addr addr, ProbePoint *out);
int probe_show_lines(ProbeCtx *c, const char *arg);  /* -L */
int probe_show_vars(ProbeCtx *c, const char *arg);   /* -V */
/* messages as perf prints them (stderr) */
void probe_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void semantic_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int probe_main(int argc, char **argv);
