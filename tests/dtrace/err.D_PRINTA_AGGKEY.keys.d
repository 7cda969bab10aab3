BEGIN
{
	@x[1] = count();
	@y[1, 2] = sum(7);
	printa("%d %@d %@d\n", @x, @y);
}
