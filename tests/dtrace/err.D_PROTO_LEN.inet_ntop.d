/* inet_ntop() without the address family */
BEGIN
{
	trace(inet_ntop(0));
}
