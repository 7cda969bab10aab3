BEGIN
{
	trace(1lu);
}
