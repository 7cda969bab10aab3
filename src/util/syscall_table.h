/* The x86_64 system call table (generated: syscall_table.c, by
 * gen_syscalls.py) and lookups by name and number.  Shared by sonde trace
 * (decoding) and the language (syscall_name()).  The table holds no
 * pointers (names are offsets into one blob of strings): a table of
 * pointers in a PIE is written by the loader at every start (its 10 pages
 * of .data.rel.ro cost ~0.2 ms of a run that never reads it); read names
 * through the accessors below. */
#pragma once
#include <stdint.h>

#define SYSCALL_MAX 512

typedef struct SyscallInfo {
	uint16_t name; /* offset in syscall_strs; 0 for unused numbers */
	uint8_t nargs;
	/* bit i: argument i is as wide as the register (long, size_t,
	 * pointer); the others are ints whose register's upper half is not
	 * part of the value (it may hold anything) */
	uint8_t wide;
	char kinds[7]; /* default argument kinds from the tracepoint format:
			* d signed, u unsigned, p pointer, s path, f fd, x hex */
	uint16_t argnames[6]; /* offsets in syscall_strs */
} SyscallInfo;

extern const SyscallInfo syscall_table[SYSCALL_MAX];
extern const char syscall_strs[];

int syscall_by_name(const char *name); /* -1 if unknown */
const char *syscall_name(int nr);      /* "syscall_0xNNN" for unknown numbers */
/* nr's row of the table: NULL for unused or out-of-range numbers (read
 * the table through it, not by index). */
const SyscallInfo *syscall_row(int nr);
/* The table's name for nr: NULL for unused or out-of-range numbers. */
const char *syscall_table_name(int nr);
/* Argument i's name in the tracepoint format (NULL: none). */
const char *syscall_arg_name(int nr, int i);
