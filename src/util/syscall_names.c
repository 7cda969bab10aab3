/* System call names by number and numbers by name (syscall_table.c). */
#include "syscall_table.h"

#include <stdio.h>
#include <string.h>

int syscall_by_name(const char *name)
{
	for (int i = 0; i < SYSCALL_MAX; i++)
		if (syscall_table[i].name && !strcmp(syscall_table[i].name, name))
			return i;
	return -1;
}

const char *syscall_name(int nr)
{
	static char buf[32];
	if (nr >= 0 && nr < SYSCALL_MAX && syscall_table[nr].name)
		return syscall_table[nr].name;
	snprintf(buf, sizeof(buf), "syscall_%#x", (unsigned)nr);
	return buf;
}
