/* a width too large to render (fuzzer: it overflowed the parser's int) */
BEGIN
{
	printf("%55555555555555555555555d\n", 1);
	exit(0);
}
