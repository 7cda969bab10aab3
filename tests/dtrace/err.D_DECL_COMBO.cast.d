BEGIN
{
	trace((int char)1);
	exit(0);
}
