/* a record that would take a speculation past specsize is dropped, with
 * the rest of its clause (counts: 1 0), and dtrace says so */
#pragma D option quiet
#pragma D option specsize=30

BEGIN
{
	self->spec = speculation();
}

BEGIN
{
	speculate(self->spec);
	printf("%d\n", 1);
	n++;
}

BEGIN
{
	speculate(self->spec);
	printf("%d %d\n", 2, 3);
	m++;
}

BEGIN
{
	commit(self->spec);
}

BEGIN
{
	printf("counts %d %d\n", n, m);
	exit(0);
}
