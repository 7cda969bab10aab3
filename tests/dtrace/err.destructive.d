/* raise() without -w */
BEGIN
{
	raise(9);
}
