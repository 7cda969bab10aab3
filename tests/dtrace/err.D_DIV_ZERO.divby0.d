/* a constant division by zero */
BEGIN
{
	c = 123/0;
	exit(0);
}
