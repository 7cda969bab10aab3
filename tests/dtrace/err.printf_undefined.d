/* a conversion libdtrace does not know (%hhd neither: no hh prefix) */
BEGIN
{
	printf("%hhd\n", 1);
	exit(0);
}
