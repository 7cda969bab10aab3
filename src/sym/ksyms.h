/* Kernel symbols from /proc/kallsyms, loaded on first use. */
#pragma once
#include "symctx.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Function (text) symbol containing addr; *off = addr - symbol start. */
const char *ksym_name(SymCtx *sc, uint64_t addr, uint64_t *off);
/* The module of a name ksym_name returned: "vmlinux" for the kernel's
 * own, else the module's name (written to buf). */
const char *ksym_module(SymCtx *sc, const char *name, char *buf, size_t len);
/* Address of a function or data (bss, data, rodata) symbol by name, 0
 * when unknown. */
uint64_t ksym_addr(SymCtx *sc, const char *name);
/* Bytes to the next text symbol above it (about the function's size), 0 if unknown. */
uint64_t ksym_size(SymCtx *sc, const char *name);
/* Addresses of many functions at once, in one pass over /proc/kallsyms
 * (no index of its ~150k names): addrs[i] is names[i]'s address when
 * exactly one function has that name (vmlinux and modules counted), else 0
 * (unknown, or a name several static functions share). */
void ksym_unique_addrs(const char *const *names, int n, uint64_t *addrs);
/* The same over text in /proc/kallsyms' format (a saved extract of it). */
void ksym_unique_addrs_in(const char *text, const char *const *names, int n, uint64_t *addrs);
/* Address of any symbol, data included, 0 when unknown. */
uint64_t ksym_any_addr(SymCtx *sc, const char *name);
