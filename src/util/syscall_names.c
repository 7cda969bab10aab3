/* System call names by number and numbers by name (syscall_table.c). */
#include "syscall_table.h"

#include <stdio.h>
#include <string.h>

const SyscallInfo *syscall_row(int nr)
{
	if (nr < 0 || nr >= SYSCALL_MAX || !syscall_table[nr].name)
		return NULL;
	return &syscall_table[nr];
}

const char *syscall_table_name(int nr)
{
	const SyscallInfo *r = syscall_row(nr);
	return r ? syscall_strs + r->name : NULL;
}

const char *syscall_arg_name(int nr, int i)
{
	const SyscallInfo *r = syscall_row(nr);
	if (!r || i < 0 || i >= r->nargs || !r->argnames[i])
		return NULL;
	return syscall_strs + r->argnames[i];
}

int syscall_by_name(const char *name)
{
	for (int i = 0; i < SYSCALL_MAX; i++)
		if (syscall_row(i) && !strcmp(syscall_table_name(i), name))
			return i;
	return -1;
}

const char *syscall_name(int nr)
{
	static char buf[32];
	const char *n = syscall_table_name(nr);
	if (n)
		return n;
	snprintf(buf, sizeof(buf), "syscall_%#x", (unsigned)nr);
	return buf;
}
