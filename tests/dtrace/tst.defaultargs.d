/* #pragma D option defaultargs: a macro argument not given reads as 0
 * ($N) or "" ($$N) instead of failing to compile; the ones given keep
 * their values */
#pragma D option quiet
#pragma D option defaultargs

BEGIN
{
	printf("%d %d [%s] [%s]\n", $1, $3, $$2, $$4);
	exit(0);
}
