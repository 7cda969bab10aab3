/* chill() without -w */
BEGIN
{
	chill(1000);
}
