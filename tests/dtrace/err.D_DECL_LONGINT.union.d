self long
union u_t x;

BEGIN
{
	exit(0);
}
