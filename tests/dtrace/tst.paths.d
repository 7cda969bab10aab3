/* basename() and dirname() of the usual and the odd paths */
#pragma D option quiet

BEGIN
{
	printf("%s|%s|%s|%s|\n", basename("/usr/bin/sh"), basename("/"), basename(""),
	    basename("a/b/"));
	printf("%s|%s|%s|%s|%s|\n", dirname("/usr/bin/sh"), dirname("/"), dirname("a"),
	    dirname("//a//b//"), dirname("/a"));
	exit(0);
}
