/* without -xerrtags: the message alone */
BEGIN
{
	trace(1 % (2 - 2));
	exit(0);
}
