/* speculate() holds a clause's output until commit(); other output goes
 * on meanwhile; discard() drops it */
#pragma D option quiet

BEGIN
{
	self->spec = speculation();
	printf("id %d\n", self->spec);
}

BEGIN
{
	speculate(self->spec);
	printf("speculated %d\n", 1);
}

BEGIN
{
	printf("not speculated\n");
}

BEGIN
{
	speculate(self->spec);
	printf("speculated %d\n", 2);
}

BEGIN
{
	commit(self->spec);
}

BEGIN
{
	self->spec = speculation();
}

BEGIN
{
	speculate(self->spec);
	printf("discarded\n");
}

BEGIN
{
	discard(self->spec);
}

BEGIN
{
	printf("end %d\n", self->spec);
	exit(0);
}
