/* inet_ntoa6(): an IPv4-mapped (::ffff:a.b.c.d) or IPv4-compatible
 * (::a.b.c.d) address prints as the IPv4 address alone, as dtrace prints
 * it, unless the second argument (strict) is a non-zero constant; :: and
 * ::1 stay IPv6 */
#pragma D option quiet

BEGIN
{
	this->a = (struct in6_addr *)alloca(sizeof(struct in6_addr));
	this->a->in6_u.u6_addr8[10] = 0xff;
	this->a->in6_u.u6_addr8[11] = 0xff;
	this->a->in6_u.u6_addr8[12] = 10;
	this->a->in6_u.u6_addr8[15] = 7;
	printf("%s %s %s\n", inet_ntoa6(this->a), inet_ntoa6(this->a, 0), inet_ntoa6(this->a, 1));
	this->a->in6_u.u6_addr8[10] = 0;
	this->a->in6_u.u6_addr8[11] = 0;
	printf("%s %s\n", inet_ntoa6(this->a), inet_ntoa6(this->a, 42));
	this->a->in6_u.u6_addr8[12] = 0;
	printf("%s ", inet_ntoa6(this->a));
	this->a->in6_u.u6_addr8[15] = 1;
	printf("%s ", inet_ntoa6(this->a));
	this->a->in6_u.u6_addr8[11] = 0xfe;
	printf("%s\n", inet_ntoa6(this->a));
	exit(0);
}
