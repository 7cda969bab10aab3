/* syscall entry and return: arguments, self-> thread-locals keyed by
 * thread, freed by assigning 0, and the probe's names */
syscall::write:entry
/pid == $target && arg0 == 1/
{
	self->n = arg2;
	self->fd = args[0];
}

syscall::write:return
/self->n/
{
	printf("%s %s:%s:%s:%s fd=%d n=%d ret=%d errno=%d\n", execname, probeprov, probemod,
	    probefunc, probename, self->fd, self->n, arg0, errno);
	self->n = 0;
}
