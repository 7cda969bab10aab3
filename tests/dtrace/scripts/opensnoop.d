#!/usr/sbin/dtrace -s
/*
 * opensnoop.d - print each file opened, with the process and the result.
 */
#pragma D option quiet
#pragma D option switchrate=10hz

dtrace:::BEGIN
{
	printf("%5s %7s %-16s %4s %s\n", "UID", "PID", "COMM", "FD", "PATH");
}

syscall::open:entry,
syscall::openat:entry
{
	/* open's path is arg0, openat's arg1 */
	self->path = probefunc == "open" ? copyinstr(arg0) : copyinstr(arg1);
	self->ok = 1;
}

syscall::open:return,
syscall::openat:return
/self->ok/
{
	printf("%5d %7d %-16s %4d %s\n", uid, pid, execname, (int)arg0, self->path);
	self->ok = 0;
}
