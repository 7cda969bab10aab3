/* The kernel's BTF as libbpf objects: vmlinux's and the loaded modules'
 * (each split on vmlinux's), each opened once on first use.  The readers
 * here hand out struct btf and ids; lang/btf_types.c turns ids into Types. */
#pragma once
#include "symctx.h"
#include <stdbool.h>

#define BTF_VMLINUX "/sys/kernel/btf/vmlinux"

/* BTF is read on first use only (a script that names no kernel type never
 * opens it).  NULL when the kernel has no BTF: btf_error() says why. */
struct btf;
struct btf *btf_kernel(SymCtx *sc);
const char *btf_error(SymCtx *sc);
/* Where the kernel's types are read from: BPFTRACE_BTF (a BTF file, the
 * only one then: no modules), else /sys/kernel/btf/vmlinux, else the
 * .BTF section of BPFTRACE_VMLINUX (a vmlinux ELF), as bpftrace 0.17. */
const char *btf_kernel_path(void);
/* A kernel module's BTF (/sys/kernel/btf/MODULE beside vmlinux's), split
 * on vmlinux's, read once; "vmlinux" is btf_kernel().  NULL if the module
 * is not loaded or has no BTF. */
struct btf *btf_module(SymCtx *sc, const char *module);
/* The modules with BTF (the files beside vmlinux's), sorted; kept for the run. */
char **btf_module_names(SymCtx *sc, int *n);
/* "vmlinux" or the module whose BTF b (from btf_module) is. */
const char *btf_module_name(SymCtx *sc, const struct btf *b);

/* The BTF objects opened so far are numbered in opening order: 0 is
 * vmlinux's (once btf_kernel() succeeded), then the modules'.  A type
 * converter keeps its per-object memo by that number. */
#define BTF_MAX_SPACES 64
int btf_space_count(SymCtx *sc);
struct btf *btf_space(SymCtx *sc, int i);
/* b's number, -1 if b is none of the opened objects. */
int btf_space_index(SymCtx *sc, const struct btf *b);
