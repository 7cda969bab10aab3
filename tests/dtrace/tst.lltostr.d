/* lltostr() in base 10 (signed) and other bases (0 and 0x prefixes) */
#pragma D option quiet

BEGIN
{
	printf("%s %s %s\n", lltostr(123), lltostr(-45), lltostr(0));
	printf("%s %s %s %s\n", lltostr(255, 16), lltostr(8, 8), lltostr(5, 2), lltostr(0, 16));
	printf("%s\n", lltostr(-9223372036854775807 - 1));
	exit(0);
}
