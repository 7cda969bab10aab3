/* Integer constants typed as DTrace types them (dt_node_int): a decimal
 * constant is int if it fits, else long; octal and hex ones may be
 * unsigned; u, l, ul, ll, ull suffixes.  trace() prints a 4-byte value
 * in " %10d" or " %10u" by its sign (0xffffffff is an unsigned int) and an
 * 8-byte one in " %19d" or " %20u"; arithmetic is typed by C's conversions. */
BEGIN
{
	trace(1);
	trace(2147483647);
	trace(2147483648);
	trace(0x7fffffff);
	trace(0xffffffff);
	trace(0x100000000);
	trace(017);
	trace(1u);
	trace(1U);
	trace(1l);
	trace(1L);
	trace(1ul);
	trace(1UL);
	trace(1ll);
	trace(1LL);
	trace(1ull);
	trace(1ULL);
	trace(0xffffffffffffffff);
}

BEGIN
{
	trace(1 + 1);
	trace(2147483647 + 1);
	trace(1L + 1);
	trace(1u - 2);
	trace(1LL << 40);
	trace(-1 < 0);
	trace(!0);
	trace(-(char)1);
	exit(0);
}
