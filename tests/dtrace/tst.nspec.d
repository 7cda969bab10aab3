/* one speculation by default: the second speculation() gets 0, and
 * speculate(0) records nothing; -x nspec=2 gives two */
#pragma D option quiet

BEGIN
{
	a = speculation();
	b = speculation();
	printf("%d %d\n", a, b);
}

BEGIN
{
	speculate(b);
	printf("not printed\n");
}

BEGIN
{
	commit(b);
}

BEGIN
{
	exit(0);
}
