/* -o FILE: output appended to FILE (here /dev/stdout), messages on stderr */
BEGIN
{
	printf("to the file\n");
	exit(0);
}
