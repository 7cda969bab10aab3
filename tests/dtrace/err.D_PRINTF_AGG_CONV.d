/* %@ is printa's */
BEGIN
{
	printf("%@d\n", 1);
	exit(0);
}
