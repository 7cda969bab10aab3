/* alloca() memory is zeroed (sonde's choice) and comes from scratchsize
 * bytes per clause: the allocation that does not fit ends the clause, and
 * the next firing starts with all of it again */
#pragma D option scratchsize=64

BEGIN,
BEGIN
{
	this->a = (long *)alloca(8);
	printf("zero %d\n", *this->a);
	this->b = alloca(56);
	printf("fits\n");
	this->c = alloca(1);
	printf("not reached\n");
}

BEGIN
{
	exit(0);
}
