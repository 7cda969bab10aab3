/* -q: no heading, no columns; trace() prints values bare */
BEGIN
{
	trace("a");
	trace(1);
	printf("|%5d|%-4s|\n", 7, "ab");
	exit(0);
}
