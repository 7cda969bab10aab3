BEGIN
{
	@x[1] = count();
	@y["a"] = sum(7);
	printa(@x, @y);
}
