double d;

BEGIN
{
	printf("%d", d);
	exit(0);
}
