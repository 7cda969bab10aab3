/* commit() twice in a clause */
BEGIN
{
	commit(1);
	commit(1);
}
