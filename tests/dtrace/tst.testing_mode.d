/* _DTRACE_TESTING (dtrace-utils' test harness sets it): dtrace(1)'s testing
 * mode leaves the CPU and ID columns out of the default output */
BEGIN
{
	trace(1);
}

BEGIN
{
	exit(0);
}
