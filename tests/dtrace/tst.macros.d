/* macro arguments: $1 as written, $$2 as a string, $$0 the script */
BEGIN
{
	printf("%d %s %s\n", $1 + 1, $$2, $$0);
	exit(0);
}
