/* A constant index past a scalar array's end is a compile error
 * (dtrace-utils' err.D_ARR_BOUNDS.declared.d). */
int a[5];

BEGIN
{
	trace(a[5]);
	exit(0);
}
