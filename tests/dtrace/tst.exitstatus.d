/* exit(N) is dtrace's exit status */
BEGIN
{
	exit(7);
}
