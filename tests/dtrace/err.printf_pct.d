/* %% cannot have flags */
BEGIN
{
	printf("%5%\n");
	exit(0);
}
