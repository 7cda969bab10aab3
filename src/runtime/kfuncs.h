/* Which kernel functions can take a kprobe, and why not: the kernel's
 * traceable functions (tracefs available_filter_functions), its kprobe
 * blacklist (debugfs), the loaded modules (/proc/modules) and bpftrace's
 * list of functions whose kretprobes can lock a machine up. */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct KFunc {
	const char *name;
	const char *module; /* NULL: vmlinux */
} KFunc;

/* available_filter_functions in file order, read once; NULL, 0 if unreadable */
const KFunc *kfuncs_traceable(int *n);
/* Why MODULE:FUNC (module NULL: any) cannot take a kprobe (ret: a kretprobe),
 * in words that name it, or NULL when it can.  at_offset: a probe inside the
 * function (FUNC+OFFSET), which needs no ftrace. */
const char *kfunc_why_not(const char *module, const char *func, bool ret, bool at_offset,
			  char *buf, size_t n);
/* The same for a function a wildcard took from available_filter_functions
 * (traceable by construction): only the kprobe blacklist and bpftrace's
 * banned kretprobes remain to check, without indexing the whole list. */
const char *kfunc_why_not_listed(const char *func, bool ret, char *buf, size_t n);
bool kmodule_loaded(const char *module);
/* ksym_unique_addrs() for traceable vmlinux functions, from an extract of
 * kallsyms made once per boot and module set (kcache.c): one pass over
 * /proc/kallsyms costs ~0.3 s of emulated time, the extract a tenth. */
void kfuncs_unique_addrs(const char *const *names, int n, uint64_t *addrs);
