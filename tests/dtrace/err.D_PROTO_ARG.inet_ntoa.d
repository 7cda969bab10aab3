/* inet_ntoa() of a string */
BEGIN
{
	trace(inet_ntoa("10.0.0.1"));
}
