/* an empty clause prints its probe's line; exit() records too */
BEGIN
{
}

BEGIN
{
	exit(0);
}
