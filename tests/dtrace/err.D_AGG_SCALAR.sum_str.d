/* an aggregating function of a string */
BEGIN
{
	@ = sum("");
}
