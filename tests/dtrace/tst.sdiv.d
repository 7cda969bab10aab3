/* Division and modulus of signed operands are signed, as C truncates (the
 * quotient towards zero, the remainder with the dividend's sign); unsigned
 * when C's conversions make the operands unsigned.  Compound assignments
 * to globals, thread-locals, clause-locals and array elements too.
 * (test_dtrace_sdiv.sh runs this again without the kernel's BPF_SDIV.) */
BEGIN
{
	printf("%d %d %d %d %d %d\n", -7 / 2, -7 % 2, 7 / -2, 7 % -2, -7 / -2, -7 % -2);
	printf("%d %d\n", 7 / 2, 7 % 2);
	printf("%d %d\n", -9000000000L / 7, -9000000000L % 7);
	printf("%d %d\n", (short)-7 / (char)2, (char)-7 % (short)4);
	printf("%u %u\n", (unsigned int)-7 / 2, (unsigned int)-7 % 10);
	printf("%u %u\n", -7L / 2UL, -7L % 10UL);
	x = -7;
	x /= 2;
	self->y = -7;
	self->y %= 4;
	this->z = -100;
	this->z /= 7;
	a[1] = -9;
	a[1] /= 4;
	n = -9;
	n %= -4;
	printf("%d %d %d %d %d\n", x, self->y, this->z, a[1], n);
	exit(0);
}
