BEGIN
{
	arg0++;
	exit(0);
}
