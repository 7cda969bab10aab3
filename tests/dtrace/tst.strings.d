/* strlen, strjoin, strstr, strchr, strrchr, toupper, tolower */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", strlen("hello"), strlen(""));
	printf("%s|%s|\n", strjoin("foo", "bar"), strjoin("", "x"));
	printf("%s|%s|\n", strstr("hello", "ll"), strstr("hello", "z"));
	printf("%s|%s|%s|\n", strchr("hello", 108), strrchr("hello", 108), strchr("hello", 122));
	printf("%s|%s|\n", toupper("Hello, world!"), tolower("HeLLo [Z]"));
	exit(0);
}
