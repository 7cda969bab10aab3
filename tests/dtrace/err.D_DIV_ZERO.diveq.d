/* a compound division by zero */
BEGIN
{
	x = 10;
	x /= 0;
	exit(0);
}
