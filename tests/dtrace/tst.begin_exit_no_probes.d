/*
 * ASSERTION: exit() in BEGIN leaves the activity state draining: BEGIN's
 * other clauses still run, no clause of another probe ever does (tick-1ms
 * fires while sonde waits 100 ms before BEGIN and until it detaches), and
 * END does.
 */
#pragma D option quiet

BEGIN
{
	exit(0);
}

BEGIN
{
	second = 1;
}

tick-1ms
{
	ticks++;
}

syscall:::entry
{
	calls++;
}

END
{
	printf("second BEGIN clause %d, ticks %d, system calls %d\n", second, ticks,
	    calls);
}
