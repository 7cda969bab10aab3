/* data after commit() */
BEGIN
{
	commit(1);
	printf("x");
}
