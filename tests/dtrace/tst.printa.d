/* printa: without a format (a newline first, then the entries), with one
 * (%@ prints the value, the other conversions the keys); an aggregation
 * printa printed is not printed again at exit */
#pragma D option quiet

BEGIN
{
	@a = avg(1);
	@b = count();
	@c = lquantize(1, 1, 10);
	@g = quantize(1);
	@k["x", 7] = sum(40);
	@k["y", 8] = sum(2);
	printa("@a = %@u\n", @a);
	printa("@b = %@u\n", @b);
	printa("@c = %@d\n", @c);
	printa("@g = %@d\n", @g);
	printa("%s is %d: %@d\n", @k);
	printa(@k);
	@left = count();
	exit(0);
}
