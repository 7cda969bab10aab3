/* index() and rindex() with and without a start position */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d\n", index("hello", "l"), rindex("hello", "l"), index("hello", "z"));
	printf("%d %d\n", index("hello", "l", 3), rindex("hello", "l", 2));
	printf("%d %d %d %d\n", index("", ""), index("abc", "", 5), rindex("abc", "", -1),
	    rindex("abc", ""));
	printf("%d %d\n", index("abc", "abcd"), rindex("abcabc", "bc", 100));
	exit(0);
}
