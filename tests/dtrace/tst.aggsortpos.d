/* aggsortpos=1: a multi-aggregation printa() sorts by the second
 * aggregation's value (then the others', then the keys); aggsortrev
 * reverses that order */
#pragma D option aggsortpos=1
BEGIN
{
	@c["a"] = count();
	@c["b"] = count();
	@c["b"] = count();
	@s["b"] = sum(10);
	@s["c"] = sum(50);
	@s["a"] = sum(20);
	printa("%s %@d %@d\n", @c, @s);
	setopt("aggsortrev");
	printa("%s %@d %@d\n", @c, @s);
	exit(0);
}
