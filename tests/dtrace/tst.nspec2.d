/* -x nspec=2: two speculations, both recorded */
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
	printf("printed\n");
}

BEGIN
{
	commit(b);
}

BEGIN
{
	exit(0);
}
