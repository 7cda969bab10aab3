#!/usr/sbin/dtrace -s
/*
 * killsnoop.d - each kill(2) with its signal, target and result, and each
 * signal the kernel sends, with its target process.
 */
#pragma D option quiet

dtrace:::BEGIN
{
	printf("%-8s %7s %-12s %4s %7s %s\n", "WHAT", "FROM", "COMM", "SIG", "TO", "RESULT");
}

syscall::kill:entry
{
	self->target = (int)arg0;
	self->sig = (int)arg1;
	self->live = 1;
}

syscall::kill:return
/self->live/
{
	printf("%-8s %7d %-12s %4d %7d %d\n", "kill", pid, execname, self->sig, self->target,
	    (int)arg0);
	self->live = 0;
}

proc:::signal-send
{
	printf("%-8s %7d %-12s %4d %7d %s\n", "signal", pid, execname, args[2], args[1]->pr_pid,
	    args[1]->pr_fname);
}
