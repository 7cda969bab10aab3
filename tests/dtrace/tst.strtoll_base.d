/* strtoll() in a base outside 2..36 is an illegal operation at run time
 * (as dtrace.c): the clause stops there, ERROR fires */
#pragma D option quiet

BEGIN
{
	this->base = 1;
	printf("%d\n", strtoll("0", this->base));
	printf("not reached\n");
}

ERROR
{
	printf("ERROR\n");
	exit(0);
}
