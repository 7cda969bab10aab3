/* ... and so is a store there (err.D_ARR_BOUNDS.declared-assignment.d). */
int a[5];

BEGIN
{
	a[5] = 0;
	exit(0);
}
