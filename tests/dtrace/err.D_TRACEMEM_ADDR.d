/* tracemem() of a string */
BEGIN
{
	tracemem("abc", 4);
}
