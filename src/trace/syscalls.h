/* The x86_64 system call table (generated: syscall_table.c) and the
 * -e trace= selection language (names, classes, negation). */
#pragma once
#include <stdbool.h>
#include <stddef.h>

#define SYSCALL_MAX 512

typedef struct SyscallInfo {
	const char *name;  /* NULL for unused numbers */
	int nargs;
	const char *kinds; /* default argument kinds from the tracepoint format:
			    * d signed, u unsigned, p pointer, s path, f fd, x hex */
	const char *argnames[6];
} SyscallInfo;

extern const SyscallInfo syscall_table[SYSCALL_MAX];

int syscall_by_name(const char *name); /* -1 if unknown */
const char *syscall_name(int nr);      /* "syscall_NNN" for unknown numbers */

/* Parse one -e expression ("trace=open,%file", "!write", "read", "all")
 * into sel (true = traced).  *seen_trace tells whether a trace= set was
 * given before (the first one starts from empty, a negated one from all).
 * False with a message in err for an unknown name or class. */
bool syscall_select(const char *expr, bool sel[SYSCALL_MAX], bool *seen_trace, char *err,
		    size_t errlen);
