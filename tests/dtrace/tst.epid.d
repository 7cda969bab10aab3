/* Enabled probe IDs count what dtrace counts: one per clause and probe it
 * enables, in the order of the clauses (the ERROR clause is one, however
 * many programs sonde compiles it to).  ERROR's arg1 is the faulting
 * probe's id and arg2 its clause's number, as dtrace-utils passes them and
 * its "error in dt_clause_N for probe ID P" message says. */
#pragma D option quiet

BEGIN
{
	printf("BEGIN %d\n", epid);
}

ERROR
{
	printf("ERROR %d, fault in probe %d clause %d\n", epid, arg1, arg2);
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
