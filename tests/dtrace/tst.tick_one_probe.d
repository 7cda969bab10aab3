/*
 * ASSERTION: clauses on one tick-N probe are one timer that runs them in
 * clause order on each firing (DTrace's one probe, one ID): the second
 * clause's predicate sees what the first one stored, every time, and the
 * fourth what the third did.  Four timers would drift apart.
 */
#pragma D option quiet

tick-1ms
{
	x++;
}

tick-1ms
/x != y + 1/
{
	printf("clause 2 saw x=%d after y=%d\n", x, y);
	exit(1);
}

tick-1ms
{
	y = x;
}

tick-1ms
/y == 300/
{
	printf("300 firings, the clauses in order\n");
	exit(0);
}
