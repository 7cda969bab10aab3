/* conditionals, defined(), #undef, arithmetic in #if */
#define LEVEL 2
#define FLAG
#if LEVEL > 1 && defined(FLAG)
#define MODE "verbose"
#elif LEVEL == 1
#define MODE "normal"
#else
#define MODE "quiet"
#endif
#ifdef __SUNW_D
#define D 1
#endif
#ifndef NOPE
#define NOPE 0
#endif
#undef FLAG
#if defined FLAG
bad
#endif
#if (1 << 4) == 16 && -1 < 0 && 0xff == 255 && 'a' == 97 && (3 ? 4 : 5) == 4
#define MATH ok
#endif
#if -1 > 0u
#define UNSIGNED ok
#endif
#if 10 / 3 == 3 && 10 % 3 == 1 && !0 && ~0 == -1
#define DIV ok
#endif

BEGIN
{
	trace(MODE);
	trace(D + NOPE);
	trace("MATH UNSIGNED DIV");
	x = MATH; y = UNSIGNED; z = DIV;
	line = __LINE__;
}
