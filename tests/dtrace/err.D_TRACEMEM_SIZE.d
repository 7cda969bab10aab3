/* tracemem() of a run-time size */
BEGIN
{
	tracemem(0, timestamp);
}
