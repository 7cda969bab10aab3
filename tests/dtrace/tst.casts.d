/* Casts to C's type names truncate and sign-extend as C does; trace()
 * prints 1- and 2-byte values unsigned, 4- and 8-byte ones signed (as
 * dtrace reads its records) */
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
