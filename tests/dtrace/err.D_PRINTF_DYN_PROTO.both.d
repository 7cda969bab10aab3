/* "%*.*d": the second star names its conversion too */
BEGIN
{
	printf("%*.*d\n", 1);
}
