/* alloca() memory is zeroed (sonde's choice) and comes from scratchsize
 * bytes per clause: the next firing starts with all of it again; an
 * allocation that does not fit is DTrace's "out of scratch space" fault,
 * which ends the clause and drops what it printed */
#pragma D option scratchsize=64

BEGIN,
BEGIN
{
	this->a = (long *)alloca(8);
	printf("zero %d\n", *this->a);
	this->b = alloca(56);
	printf("fits\n");
}

BEGIN
{
	this->c = alloca(64);
	printf("dropped: the clause faults\n");
	this->d = alloca(1);
	printf("not reached\n");
}

BEGIN
{
	exit(0);
}
