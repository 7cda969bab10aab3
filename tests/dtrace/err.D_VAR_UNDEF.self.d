/* a thread-local read that nothing assigns */
BEGIN
{
	trace(self->n);
	exit(0);
}
