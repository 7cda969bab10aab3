/*
 * ASSERTION: no clause of another probe runs before BEGIN's clauses have
 * all run (dtrace-utils' activity state): sonde attaches the probes
 * first, and here waits 100 ms before BEGIN (SONDE_TEST_LATE_BEGIN, as a
 * sonde scheduled late), where tick-1ms fires ~100 times; none of those
 * firings sees init unset, and the count starts at BEGIN.
 */
#pragma D option quiet

BEGIN
{
	init = 1;
}

BEGIN
{
	init2 = init + 1;
}

tick-1ms
{
	n++;
	early += init2 != 2;
}

tick-1ms
/n == 5/
{
	exit(0);
}

END
{
	printf("ticks %d, before BEGIN %d\n", n, early);
}
