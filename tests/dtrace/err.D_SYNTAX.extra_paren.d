BEGIN
{
	trace(epid));
}
