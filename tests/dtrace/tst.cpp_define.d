/* -D NAME=VALUE, -D NAME (1), -U NAME, and DTrace's predefined names */
#pragma D option quiet

BEGIN
{
#if defined(__SUNW_D) && __SUNW_D_VERSION >= 0x01000000 && defined(__linux)
	printf("D on Linux\n");
#endif
#ifdef __GNUC__
	printf("not gcc\n");
#endif
#ifndef GONE
	printf("GONE undefined\n");
#endif
	printf("%d %d\n", VAL, FLAG);
#if VAL > 5
	printf("VAL > 5\n");
#elif VAL > 1
	printf("VAL > 1\n");
#else
	printf("small\n");
#endif
	exit(0);
}
