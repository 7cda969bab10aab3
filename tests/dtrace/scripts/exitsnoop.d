#!/usr/sbin/dtrace -s
/*
 * exitsnoop.d - each process exit with its parent and the reason
 * (exited, killed by a signal, dumped core).
 */
#pragma D option quiet

dtrace:::BEGIN
{
	printf("%7s %7s %-16s %s\n", "PID", "PPID", "COMM", "REASON");
}

proc:::exit
{
	printf("%7d %7d %-16s %s\n", pid, ppid, execname,
	    args[0] == CLD_EXITED ? "exited" :
	    args[0] == CLD_KILLED ? "killed" :
	    args[0] == CLD_DUMPED ? "core dumped" : "?");
}
