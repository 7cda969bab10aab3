/* Which kernel functions can take a kprobe, and why not: the kernel's
 * traceable functions (tracefs available_filter_functions), its kprobe
 * blacklist (debugfs), the loaded modules (/proc/modules) and bpftrace's
 * list of functions whose kretprobes can lock a machine up. */
#pragma once
#include "symctx.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kindex.h"

typedef struct KFunc {
	const char *name;
	const char *module; /* NULL: vmlinux */
} KFunc;

/* available_filter_functions in file order, read once; NULL, 0 if unreadable */
const KFunc *kfuncs_traceable(SymCtx *sc, int *n);
/* the same once each, without .part/.cold pieces (fbt's functions), made once */
const KFunc *kfuncs_distinct(SymCtx *sc, int *n);
/* Why MODULE:FUNC (module NULL: any) cannot take a kprobe (ret: a kretprobe),
 * in words that name it, or NULL when it can.  at_offset: a probe inside the
 * function (FUNC+OFFSET), which needs no ftrace. */
const char *kfunc_why_not(SymCtx *sc, const char *module, const char *func, bool ret, bool at_offset,
			  char *buf, size_t n);
/* The same for a function kfuncs_match() gave (traceable by construction):
 * only the kprobe blacklist and bpftrace's banned kretprobes remain. */
const char *kfunc_why_not_matched(const KIndexMatch *m, bool ret, char *buf, size_t n);
bool kmodule_loaded(const char *module);
/* The traceable functions whose names match glob ('*' and '?'), in module
 * unless NULL (kindex_match(); kindex_match_free() frees them), from the
 * index of them made once per boot (kfuncs.c) */
int kfuncs_match(SymCtx *sc, const char *module, const char *glob, KIndexMatch **out);
