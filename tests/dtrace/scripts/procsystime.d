#!/usr/sbin/dtrace -s
/*
 * procsystime.d - time and count the system calls of one process:
 *   procsystime.d -p PID   or   procsystime.d -c 'command'
 */
#pragma D option quiet

syscall:::entry
/pid == $target/
{
	self->start = timestamp;
}

syscall:::return
/self->start/
{
	@count[probefunc] = count();
	@elapsed[probefunc] = sum(timestamp - self->start);
	self->start = 0;
}

dtrace:::END
{
	printf("Counts,\n%16s %18s\n", "SYSCALL", "COUNT");
	printa("%16s %@18d\n", @count);
	normalize(@elapsed, 1000);
	printf("\nElapsed Times (us),\n%16s %18s\n", "SYSCALL", "TIME");
	printa("%16s %@18d\n", @elapsed);
}
