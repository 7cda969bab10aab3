/* strlen() of an integer */
BEGIN
{
	x = strlen(1);
}
