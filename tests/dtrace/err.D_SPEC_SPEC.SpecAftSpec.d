/* speculate() twice in a clause */
BEGIN
{
	speculate(1);
	speculate(1);
}
