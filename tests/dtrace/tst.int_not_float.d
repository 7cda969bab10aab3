/* integers that a floating-point constant's pattern also matches, as
 * long: dtrace's lexer takes the integer (1l, 0x1f and 0xe5 are not
 * floats) */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d %d\n", 1l, 0x1f, 0xe5, 1ul, 10LL);
	exit(0);
}
