/* strtoll() of an integer: it takes a string */
BEGIN
{
	x = strtoll(1);
}
