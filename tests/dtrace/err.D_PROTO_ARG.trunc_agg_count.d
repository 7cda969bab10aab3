/* an aggregation has no value in a clause: not a count for trunc() */
BEGIN
{
	@calls = count();
	@top = sum(5);
	trunc(@calls, @top);
	exit(0);
}
