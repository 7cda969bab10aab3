/* a '*' width takes an integer */
BEGIN
{
	printf("%*d\n", "x", 1);
	exit(0);
}
