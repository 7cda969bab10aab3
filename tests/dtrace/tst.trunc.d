/* trunc(@a, n) keeps the n largest, trunc(@a, -n) the n smallest,
 * trunc(@a) empties it; clear() zeroes values and keeps keys */
#pragma D option quiet

BEGIN
{
	@a[(int)1] = sum(10); @a[(int)2] = sum(20); @a[(int)3] = sum(30); @a[(int)4] = sum(40);
	@b[(int)1] = sum(10); @b[(int)2] = sum(20); @b[(int)3] = sum(30); @b[(int)4] = sum(40);
	@c[(int)1] = sum(10);
	@d["k"] = count();
	trunc(@a, 2);
	trunc(@b, -1);
	trunc(@c);
	clear(@d);
	exit(0);
}
