#!/usr/sbin/dtrace -s
/*
 * execsnoop.d - print each new program run, with its parent.
 */
#pragma D option quiet

dtrace:::BEGIN
{
	printf("%7s %7s %-16s %s\n", "PID", "PPID", "COMM", "ARGS");
}

proc:::exec-success
{
	printf("%7d %7d %-16s %s\n", pid, curpsinfo->pr_ppid, execname,
	    curpsinfo->pr_psargs);
}
