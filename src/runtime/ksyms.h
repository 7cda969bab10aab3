/* Kernel symbols from /proc/kallsyms, loaded on first use. */
#pragma once
#include <stdbool.h>
#include <stdint.h>

/* Function (text) symbol containing addr; *off = addr - symbol start. */
const char *ksym_name(uint64_t addr, uint64_t *off);
/* Address of a function or data (bss, data, rodata) symbol by name, 0
 * when unknown. */
uint64_t ksym_addr(const char *name);
/* Bytes to the next text symbol above it (about the function's size), 0 if unknown. */
uint64_t ksym_size(const char *name);
/* Address of any symbol, data included, 0 when unknown. */
uint64_t ksym_any_addr(const char *name);
