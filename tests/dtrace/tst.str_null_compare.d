/*
 * ASSERTION: a string compared with NULL (DTrace's strstr() without a
 * match, strtok() at its end) is a comparison, in a predicate too.
 */
#pragma D option quiet

BEGIN
/strstr("abcdef", "cd") != NULL/
{
	printf("found: %d\n", strstr("abcdef", "cd") != NULL);
	printf("missing: %d\n", strstr("abcdef", "zz") == NULL);
	printf("reversed: %d\n", NULL != strstr("abcdef", "zz"));
	printf("strtok end: %d\n", strtok("a", ",") != NULL && strtok(NULL, ",") == NULL);
	exit(0);
}
