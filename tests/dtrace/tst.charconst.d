/* Character constants are integer constants of type int (as in C and
 * DTrace's lexer): their value is the character's, or for several
 * characters their bytes, the first one highest */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d %d %d %d\n", 'a', '\n', '\0', '\x41', '\101', '\\', '\'');
	printf("%d %d %d\n", 'ab', '"', '\t' + 1);
	printf("%c%c%c\n", 'o', 'k', '\n');
	trace('a');
	trace("\n");
	exit(0);
}
