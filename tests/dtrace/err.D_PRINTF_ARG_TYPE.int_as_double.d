BEGIN
{
	printf("%g", 1);
	exit(0);
}
