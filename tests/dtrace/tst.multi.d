/* -n and -s together: each announced; clauses run in command-line order */
BEGIN
{
	printf("script\n");
	exit(0);
}
