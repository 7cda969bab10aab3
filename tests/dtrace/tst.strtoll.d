/* strtoll(str[, base]): blanks and a sign before the digits, "0x" skipped
 * in base 16 when a hex digit follows it, digits of the base (letters for
 * 10 and up, either case) up to the first that is not one; base 10 when
 * none is given; nothing read is 0 */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d\n", strtoll("0", 2), strtoll("1", 36), strtoll("zZ", 36));
	printf("%d %d %d\n", strtoll("0x1f", 16), strtoll("0X1F", 16), strtoll("1f", 16));
	printf("%d %d %d\n", strtoll("0x", 16), strtoll("0xg", 16), strtoll("0x1f"));
	printf("%d %d %d\n", strtoll(" \t-123abc"), strtoll("+42"), strtoll("12 34"));
	printf("%d %d %d\n", strtoll("777", 8), strtoll("9", 8), strtoll("101", 2));
	printf("%d %d\n", strtoll(""), strtoll("-"));
	printf("%d %d\n", strtoll("9223372036854775807"), strtoll("-9223372036854775808"));
	this->s = "4096";
	this->b = 10;
	printf("%d %d\n", strtoll(this->s, this->b) + 1, strtoll(execname) );
	exit(0);
}
