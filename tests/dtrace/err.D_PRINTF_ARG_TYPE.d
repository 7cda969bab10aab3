/* a conversion given a value of a type it does not take: dtrace's message
 * names the argument, the conversion and the types it takes */
BEGIN
{
	printf("%d\n", "abc");
	exit(0);
}
