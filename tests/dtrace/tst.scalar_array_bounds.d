/* A variable index outside a scalar array is DTrace's run-time fault,
 * "index out of bounds" with the index (dtrace-utils'
 * tst.declared-bounds.runtime_out.d). */
#pragma D option quiet

int a[5];

BEGIN
{
	i = 8;
	a[i] = 12345678;
	trace(a[i]);
	exit(1);
}

ERROR
{
	printf("expected run-time error: %d %d\n", arg4 == DTRACEFLT_BADINDEX, arg5);
	exit(0);
}
