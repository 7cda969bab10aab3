/* getmajor() takes one dev_t */
BEGIN
{
	x = getmajor();
}
