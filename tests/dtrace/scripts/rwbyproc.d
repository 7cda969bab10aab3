#!/usr/sbin/dtrace -s
/*
 * rwbyproc.d - bytes read and written by process and system call, with
 * the number of calls; a table when tracing ends.
 */
#pragma D option quiet

syscall::read:return,
syscall::write:return,
syscall::pread64:return,
syscall::pwrite64:return
/(int)arg0 > 0/
{
	@bytes[execname, probefunc] = sum(arg0);
	@calls[execname, probefunc] = count();
}

dtrace:::END
{
	printf("%-20s %-10s %10s %12s\n", "PROCESS", "CALL", "CALLS", "BYTES");
	printa("%-20s %-10s %@10d %@12d\n", @calls, @bytes);
}
