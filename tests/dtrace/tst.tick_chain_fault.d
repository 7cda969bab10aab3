/*
 * ASSERTION: a fault ends its clause, not the firing: ERROR runs, then the
 * next clause on the same tick probe.
 */
#pragma D option quiet

tick-1ms
{
	x++;
	trace(*(int *)0);
}

ERROR
{
	printf("ERROR after clause 1, x=%d\n", x);
}

tick-1ms
/x == 2/
{
	printf("clause 2 after ERROR, x=%d\n", x);
	exit(0);
}
