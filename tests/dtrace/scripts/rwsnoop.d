#!/usr/sbin/dtrace -s
/*
 * rwsnoop.d - each read and write of a command, with its descriptor,
 * the bytes asked for and the bytes done:  rwsnoop.d -c 'command'
 */
#pragma D option quiet

dtrace:::BEGIN
{
	printf("%-16s %6s %3s %8s %8s\n", "COMM", "CALL", "FD", "ASKED", "DONE");
}

syscall::read:entry,
syscall::write:entry
/pid == $target/
{
	self->fd = arg0 + 1;	/* +1: descriptor 0 is a real one */
	self->size = arg2;
}

syscall::read:return,
syscall::write:return
/self->fd/
{
	printf("%-16s %6s %3d %8d %8d\n", execname, probefunc, self->fd - 1, self->size,
	    (int)arg0);
	self->fd = 0;
	self->size = 0;
}
