/* tracemem() with four arguments */
BEGIN
{
	tracemem(0, 4, 2, 1);
}
