/* a conversion without its value */
BEGIN
{
	printf("%d %s\n", 1);
	exit(0);
}
