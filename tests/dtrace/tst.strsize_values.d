/* strsize counts characters: a string holds at most strsize of them and
 * its NUL (dtrace-utils), whatever made it: a constant's value (a format
 * keeps its whole text), a builtin, a subroutine's result, inet_ntoa6()'s
 * text, an aggregation key; sizeof of a string variable is strsize, of a
 * constant its own size */
#pragma D option quiet
#pragma D option strsize=5

BEGIN
{
	x = "abcdefgh";
	this->a = (struct in6_addr *)alloca(sizeof(struct in6_addr));
	this->a->in6_u.u6_addr8[0] = 0xfe;
	this->a->in6_u.u6_addr8[1] = 0x80;
	printf("%s|%s|%s|%s|\n", "abcdefgh", x, probeprov, lltostr(-1234567));
	printf("%s|%s|\n", strjoin("12", "3456"), inet_ntoa6(this->a));
	printf("%d %d\n", sizeof(x), sizeof("abcdefgh"));
	trace("abcdefgh");
	trace(probeprov);
	printf("|%d|\n", "abcdefgh" == "abcdexyz");
	@[x] = count();
	exit(0);
}
