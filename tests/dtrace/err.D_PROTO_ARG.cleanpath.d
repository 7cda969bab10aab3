/* cleanpath() of an integer */
BEGIN
{
	trace(cleanpath(0x2f));
}
