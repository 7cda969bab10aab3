/* results are at most strsize - 1 bytes */
#pragma D option quiet
#pragma D option strsize=8

BEGIN
{
	printf("%s|%s|\n", strjoin("abcdef", "ghijkl"), toupper("abcdefghij"));
	exit(0);
}
