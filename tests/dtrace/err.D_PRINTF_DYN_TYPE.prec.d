/* a ".*" precision given a string */
BEGIN
{
	printf("%.*d\n", "a", 1);
}
