/* substr(s, index[, length]): negative positions count from the end */
#pragma D option quiet

BEGIN
{
	printf("%s|%s|%s|\n", substr("hello", 1), substr("hello", 1, 3), substr("hello", -2));
	printf("%s|%s|%s|\n", substr("hello", -7, 3), substr("hello", 10), substr("hello", 1, -1));
	printf("%s|%s|\n", substr("hello", 0, 0), substr("hello", -9));
	exit(0);
}
