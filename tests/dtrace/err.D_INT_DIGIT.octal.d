BEGIN
{
	trace(089);
}
