/* sonde probe: perf probe's source lines, variables and uprobe events from
 * DWARF.  What the files of src/probe/ share. */
#pragma once
#include <stdbool.h>
#include <stdio.h>

#include "../sym/debuginfo.h"
#include "../sym/dwarf_walk.h"
#include "../sym/probe_find.h"
#include "../sym/symctx.h"

/* perf's status for an error: a negative errno (the exit status is its
 * low byte, as perf's) */
#define PROBE_ERR(e) (-(e))

/* --filter / -F: perf's strfilter, globs with ! & | ( ) */
typedef struct StrFilter StrFilter;
/* filter OR expr (filter may be NULL); NULL and *err set on a syntax error */
StrFilter *strfilter_or(StrFilter *f, const char *expr, const char **err);
bool strfilter_match(const StrFilter *f, const char *s);

typedef struct ProbeCtx {
	SymCtx *sym;        /* the run's readers (sym/symctx.h) */
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
int probe_main(int argc, char **argv);
