/* inet_ntoa6() reads a struct in6_addr, not an int array */
int *p;

BEGIN
{
	p = alloca(sizeof(int) * 4);
	trace(inet_ntoa6(p));
	exit(0);
}
