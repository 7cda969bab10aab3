/* an empty format */
BEGIN
{
	printf("");
	exit(0);
}
