/* more values than the format's conversions */
BEGIN
{
	printf("%d\n", 1, 2);
	exit(0);
}
