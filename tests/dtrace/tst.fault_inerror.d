/* a fault inside an ERROR clause does not fire ERROR again: that clause
 * ends (its output dropped), the next ERROR clause still runs, and dtrace
 * counts it as an error in the ERROR probe enabling */
BEGIN
{
	*(int *)8;
}

ERROR
{
	printf("dropped\n");
	trace(*(int *)arg5);
	printf("not reached\n");
}

ERROR
{
	printf("second ERROR clause, fault %d at 0x%x\n", arg4, arg5);
}

BEGIN
{
	exit(0);
}
