/* results are at most strsize characters (dtrace-utils: strsize, then the NUL) */
#pragma D option quiet
#pragma D option strsize=8

BEGIN
{
	printf("%s|%s|\n", strjoin("abcdef", "ghijkl"), toupper("abcdefghij"));
	exit(0);
}
