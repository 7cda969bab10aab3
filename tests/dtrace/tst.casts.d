/* Casts to C's type names truncate and sign-extend as C does; trace()
 * prints each value by its size and sign, as dtrace-utils 2.0 does
 * ((char)-1 is -1, (unsigned)-1 4294967295, a pointer unsigned) */
struct foo {
	int a;
};

BEGIN
{
	trace((char)300);
	trace((char)-1);
	trace((unsigned char)-1);
	trace((signed char)200);
	trace((short)-1);
	trace((unsigned short)65537);
	trace((int)0x1ffffffffLL);
	trace((unsigned)-1);
	trace((unsigned int)-1);
	trace((long)-1);
	trace((long long)-1);
	trace((unsigned long long)-1);
	trace((int64_t)-1);
	trace((uint32_t)-1);
	trace((uint8_t)257);
	trace((uintptr_t)0);
	trace((char *)0);
	trace((const char *)0);
	trace((struct foo *)0);
}

BEGIN
/(short)65535 == -1 && (char)255 < 0 && (unsigned char)255 > 0/
{
	trace((unsigned long long)(char)-1 == 0xffffffffffffffffULL);
	trace((long)(int)-5 == -5);
	trace(sizeof(unsigned short));
	trace(sizeof(long long));
	trace(sizeof(struct foo *));
	exit(0);
}
