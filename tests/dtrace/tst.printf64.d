/* printf converts an integer at its size, as dtrace does: %d of a 64-bit
 * value prints all 64 bits, of an int its 32 */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %i\n", 1LL << 40, (long)(unsigned)-1, 4294967295, -1L);
	printf("%u %x %X %o %5d|%-5d|\n", (unsigned)-1, -1, 0xffffffffffULL, 8, 12, 12);
	exit(0);
}
