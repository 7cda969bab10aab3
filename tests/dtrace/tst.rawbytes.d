/* #pragma D option rawbytes: trace() of a string prints its record (strsize + 1
 * bytes, zeros after the string) as a hex and ASCII dump, as tracemem()
 * does; integers are still printed as numbers */
#pragma D option quiet
#pragma D option rawbytes
#pragma D option strsize=20

BEGIN
{
	trace("hello");
	trace(strjoin("ab", "cd"));
	trace(7);
	printf("\n");
	exit(0);
}
