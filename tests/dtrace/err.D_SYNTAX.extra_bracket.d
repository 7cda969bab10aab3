BEGIN
{
	trace(")");
	x[1] = 2;
	trace(x[1]]);
}
