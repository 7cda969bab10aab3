#!/usr/sbin/dtrace -s
/*
 * syscallbyproc.d - count system calls by process name.
 * Prints a table when tracing ends (Ctrl-C, or the -c command's exit).
 */
#pragma D option quiet

dtrace:::BEGIN
{
	printf("Tracing... Hit Ctrl-C to end.\n");
}

syscall:::entry
{
	@calls[execname] = count();
}

dtrace:::END
{
	printf("%-32s %10s\n", "PROCESS", "SYSCALLS");
	printa("%-32s %@10d\n", @calls);
}
