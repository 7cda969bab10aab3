/* a format ending inside a conversion */
BEGIN
{
	printf("50%");
	exit(0);
}
