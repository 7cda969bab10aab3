/*
 * ASSERTION: a thread-local scalar array (`self int a[3];`) holds its
 * elements per thread, as in DTrace: self->a[i] is an element (unset ones
 * are zero), kept across clauses of the thread; a run-time index outside
 * it is the "index out of bounds" fault.
 */
#pragma D option quiet

self int a[3];
self char c[4];

BEGIN
{
	self->a[1] = 5;
	i = 2;
	self->a[i] = self->a[1] + 2;
	self->c[3] = 65;
}

BEGIN
{
	printf("%d %d %d %d %d\n", self->a[0], self->a[1], self->a[2], self->c[0],
	    self->c[3]);
	self->a[i]++;
	self->a[0] += 10;
	printf("%d %d\n", self->a[0], self->a[2]);
}

BEGIN
{
	i = 3;
	self->a[i] = 1;
	printf("not reached\n");
}

ERROR
{
	printf("index %d\n", arg5);
	exit(0);
}
