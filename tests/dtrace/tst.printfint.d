/* printf() converts an integer at its size, as dtrace's pfprint_sint and
 * pfprint_uint do: %d sign-extends a 1-, 2- or 4-byte signed value (an
 * unsigned one prints as %u: dtrace's pfcheck_dint), %u, %x and %o
 * zero-extend it; %hd takes a short, %ld a long. */
BEGIN
{
	printf("%d %d %d %d\n", (short)-2, (char)-3, (int)-4, (long)-5);
	printf("%d %d %d\n", (unsigned char)255, (unsigned short)65535, (unsigned int)0xffffffff);
	printf("%u %u %u %u\n", (char)-1, (short)-2, (int)-3, (long long)-4);
	printf("%x %x %X %o\n", (char)-1, (short)-1, (int)-1, (unsigned char)0x1ff);
	printf("%5d|%-5d|%05u\n", (short)-2, (char)-2, (unsigned short)7);
	printf("%hd %ld\n", (short)-3, 1L << 40);
	exit(0);
}
