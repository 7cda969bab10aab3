/* a ".*" precision without its argument */
BEGIN
{
	printf("%.*d\n");
}
