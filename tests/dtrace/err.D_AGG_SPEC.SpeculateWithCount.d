/* no aggregations in a speculating clause */
BEGIN
{
	speculate(1);
	@a = count();
}
