BEGIN
{
	trace((struct)1);
}
