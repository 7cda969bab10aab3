/* strtok(): leading delimiters skipped, the delimiter after a token left
 * at the start of the rest (as dtrace-utils: a next call with other
 * delimiters gets it), strtok(NULL, ...) going on with the rest (also in
 * a later clause of the same thread), "" once nothing is left */
BEGIN
{
	printf("[%s]", strtok(",,a,bb,,ccc,", ","));
	printf("[%s]", strtok(NULL, ","));
	printf("[%s]", strtok(NULL, ","));
	printf("[%s]", strtok(NULL, ","));
	printf("[%s]\n", strtok(NULL, ","));
	printf("[%s]", strtok("/usr/lib/x86_64", "/_"));
	printf("[%s]", strtok(NULL, "_"));
	printf("[%s]", strtok(NULL, ""));
	printf("[%s]\n", strtok(NULL, "/"));
	printf("[%s]", strtok(",;", ";,"));
	printf("[%s]\n", strtok(NULL, ";,"));
	this->path = "a b  c";
	printf("[%s]", strtok(this->path, " "));
}

BEGIN
{
	printf("[%s]", strtok(NULL, " "));
	printf("[%s]\n", strtok(NULL, " "));
	exit(0);
}
