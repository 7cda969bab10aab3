/* The x86_64 system call table (generated: syscall_table.c, by
 * gen_syscalls.py) and lookups by name and number.  Shared by sonde trace
 * (decoding) and the language (syscall_name()). */
#pragma once

#define SYSCALL_MAX 512

typedef struct SyscallInfo {
	const char *name;  /* NULL for unused numbers */
	int nargs;
	const char *kinds; /* default argument kinds from the tracepoint format:
			    * d signed, u unsigned, p pointer, s path, f fd, x hex */
	const char *argnames[6];
	/* bit i: argument i is as wide as the register (long, size_t,
	 * pointer); the others are ints whose register's upper half is not
	 * part of the value (it may hold anything) */
	unsigned char wide;
} SyscallInfo;

extern const SyscallInfo syscall_table[SYSCALL_MAX];

int syscall_by_name(const char *name); /* -1 if unknown */
const char *syscall_name(int nr);      /* "syscall_0xNNN" for unknown numbers */
