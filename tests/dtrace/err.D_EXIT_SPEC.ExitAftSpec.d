/* no exit() in a speculating clause */
BEGIN
{
	speculate(1);
	exit(0);
}
