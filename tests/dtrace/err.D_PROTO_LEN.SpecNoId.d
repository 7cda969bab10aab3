/* speculate() takes an id */
BEGIN
{
	speculate();
}
