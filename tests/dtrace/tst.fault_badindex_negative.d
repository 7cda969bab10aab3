/*
 * ASSERTION: a negative index into a scalar array (a load here) is DTrace's
 * "index out of bounds" fault, the index printed signed as dtrace-utils'
 * dt_handle.c does ("(%ld)"); arg5 of ERROR is the index.
 */
#pragma D option quiet

int a[5];

BEGIN
{
	i = -3;
	trace(a[i]);
}

ERROR
{
	printf("ERROR: BADINDEX %d, arg5 %d\n", arg4 == DTRACEFLT_BADINDEX, (int64_t)arg5);
	exit(0);
}
