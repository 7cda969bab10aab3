/* printa()'s %@ conversions take the aggregation's value as 64 bits, as
 * dtrace's do (%@u of a sum of -1 is 18446744073709551615, %@x
 * ffffffffffffffff), and key conversions take each key at its size: a
 * long key's %x prints 16 digits, an int key's 8. */
BEGIN
{
	@a["x"] = sum(255);
	@a["y"] = sum(-1);
	printa("%s %@u|\n", @a);
	printa("%s %@x|\n", @a);
	printa("%s %@X|\n", @a);
	printa("%s %@o|\n", @a);
	printa("%s %@d|\n", @a);
	printa("%s %@-22d|\n", @a);
	@b[-1L] = count();
	printa("%x %@d\n", @b);
	@c[(int)-1] = count();
	printa("%x %@u\n", @c);
	exit(0);
}
