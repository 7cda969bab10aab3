BEGIN
{
	trace(1.5);
}
