/* an unknown printf conversion is a syntax error */
BEGIN
{
	printf("%z\n", 1);
}
