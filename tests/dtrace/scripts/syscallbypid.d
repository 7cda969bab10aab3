#!/usr/sbin/dtrace -s
/*
 * syscallbypid.d - count system calls by process id, name and call.
 */
#pragma D option quiet

syscall:::entry
{
	@calls[pid, execname, probefunc] = count();
}

dtrace:::END
{
	printf("%7s %-20s %-24s %8s\n", "PID", "CMD", "SYSCALL", "COUNT");
	printa("%7d %-20s %-24s %@8d\n", @calls);
}
