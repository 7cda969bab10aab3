/* copyin() without its size */
BEGIN
{
	x = copyin(0);
}
