/* A constant index past a thread-local scalar array's end is refused at
 * compile time, as for a global one. */
self int a[3];

BEGIN
{
	self->a[3] = 1;
	exit(0);
}
