/* dtrace:::ERROR fires for each fault with dtrace-utils' arguments: arg1
 * the probe's id, arg2 the clause's number (dt_clause_N), arg3 the BPF pc
 * (an instruction index), arg4 the fault type, arg5 the address; dtrace(1)
 * still prints its own message.  ERROR clauses run in
 * order, each with its predicate. */
BEGIN
{
	trace("dropped");
	*(int *)16;
}

ERROR
{
	printf("probe %d clause %d pc %s type %d %d addr 0x%x\n", arg1, arg2,
	    arg3 > 0 ? "set" : "unset", arg4, arg4 == DTRACEFLT_BADADDR, arg5);
}

BEGIN
{
	x = 0;
	y = 5 % x;
}

ERROR
/arg4 == DTRACEFLT_DIVZERO/
{
	printf("divide-by-zero: probe %d clause %d addr %d\n", arg1, arg2, arg5);
}

BEGIN
{
	exit(0);
}
