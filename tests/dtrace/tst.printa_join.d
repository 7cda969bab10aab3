/* printa() of several aggregations: one row per key of any of them, joined
 * on the keys; a key missing from one prints 0 for it; rows sort by the
 * first aggregation's value, then the others', then the keys; without a
 * format the values follow the keys in 16 columns each; with one, each %@
 * conversion takes the next aggregation's value; a quantize prints its
 * table; every aggregation printed is not printed again at exit. */
BEGIN
{
	@c["a"] = count();
	@c["b"] = count();
	@c["b"] = count();
	@s["b"] = sum(10);
	@s["c"] = sum(5);
	@q["a"] = quantize(3);
	@n = count();
	@m = sum(7);
	printa(@c, @s);
	printa("%-4s %@8d %@8d\n", @c, @s);
	printa("%s:%@d%@d\n", @c, @q);
	printa(@n, @m);
	printa("%@d|%@d\n", @n, @m);
	exit(0);
}
