/* inet_ntoa6()'s strict flag is a constant */
BEGIN
{
	this->p = (struct in6_addr *)alloca(sizeof(struct in6_addr));
	strict = 1;
	trace(inet_ntoa6(this->p, strict));
	exit(0);
}
