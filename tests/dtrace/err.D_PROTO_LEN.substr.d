/* substr() needs a position */
BEGIN
{
	x = substr("abc");
}
