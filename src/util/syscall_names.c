/* System call names by number and numbers by name (syscall_table.c). */
#include "syscall_table.h"

#include <stdio.h>
#include <string.h>

const char *syscall_table_name(int nr)
{
	if (nr < 0 || nr >= SYSCALL_MAX || !syscall_table[nr].name)
		return NULL;
	return syscall_strs + syscall_table[nr].name;
}

const char *syscall_arg_name(int nr, int i)
{
	if (!syscall_table_name(nr) || i < 0 || i >= syscall_table[nr].nargs ||
	    !syscall_table[nr].argnames[i])
		return NULL;
	return syscall_strs + syscall_table[nr].argnames[i];
}

int syscall_by_name(const char *name)
{
	for (int i = 0; i < SYSCALL_MAX; i++)
		if (syscall_table[i].name && !strcmp(syscall_strs + syscall_table[i].name, name))
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
