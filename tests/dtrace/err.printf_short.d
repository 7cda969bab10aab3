/* %hd takes a short only, as dtrace's pfcheck_type */
BEGIN
{
	printf("%hd\n", 1);
	exit(0);
}
