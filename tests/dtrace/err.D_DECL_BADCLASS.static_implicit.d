static counter;

BEGIN
{
	exit(0);
}
