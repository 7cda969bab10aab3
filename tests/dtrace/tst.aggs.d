/* count sum avg min max stddev: keys left, values right in 16 columns,
 * sorted by value; at exit in the order the script names them */
#pragma D option quiet

BEGIN
{
	@c["b"] = count(); @c["a"] = count(); @c["a"] = count();
	@s["neg"] = sum(-7); @s["pos"] = sum(30); @s["pos"] = sum(12);
	@avg = avg(10); @avg = avg(-40);
	@mn[(int)1, "x"] = min(5); @mn[(int)1, "x"] = min(-3); @mn[(int)2, "y"] = min(9);
	@mx = max(-8); @mx = max(-2);
	@sd = stddev(2); @sd = stddev(4); @sd = stddev(4); @sd = stddev(4);
	@sd = stddev(5); @sd = stddev(5); @sd = stddev(7); @sd = stddev(9);
	@big = stddev(4000000000); @big = stddev(-4000000000);
	exit(0);
}
