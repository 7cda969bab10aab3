/* Enabled probe IDs count what dtrace counts: one per clause and probe it
 * enables, in the order of the clauses (the ERROR clause is one, however
 * many programs sonde compiles it to); epid, ERROR's arg1 and the "error on
 * enabled probe ID" message agree. */
#pragma D option quiet

BEGIN
{
	printf("BEGIN %d\n", epid);
}

ERROR
{
	printf("ERROR %d, fault in %d\n", epid, arg1);
}

BEGIN
{
	trace(*(int *)0);
}

profile:::tick-1s, profile:::tick-1ms
/!done/
{
	done = 1;
	printf("tick %d\n", epid);
	exit(0);
}

END
{
	printf("END %d\n", epid);
}
