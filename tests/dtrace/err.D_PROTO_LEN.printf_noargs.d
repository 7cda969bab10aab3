/* printf() with no arguments */
BEGIN
{
	printf();
}
