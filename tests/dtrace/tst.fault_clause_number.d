/* dt_clause_N in a fault's message counts one clause per probe description
 * of each clause, ERROR's included (dtrace-utils' tst.probe_dtrace): the
 * fault below is in clause 3; ERROR's arg1 is the probe's id and arg2 the
 * clause's number */
#pragma D option quiet

BEGIN, END
{
}

ERROR
{
	printf("probe %d clause %d\n", arg1, arg2);
}

BEGIN
{
	trace(*(int *)0);
}

BEGIN
{
	exit(0);
}
