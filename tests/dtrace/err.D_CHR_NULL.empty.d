BEGIN
{
	trace('');
}
