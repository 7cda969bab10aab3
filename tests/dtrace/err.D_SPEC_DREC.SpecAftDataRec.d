/* speculate() after a data-recording action */
BEGIN
{
	printf("x");
	speculate(1);
}
