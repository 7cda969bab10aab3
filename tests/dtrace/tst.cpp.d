/* -C: preprocessor lines (here sonde's own preprocessor: #define of
 * constants, #if/#ifdef/#else) */
#define ANSWER 41
#ifdef ANSWER
#define MORE 1
#else
#define MORE 100
#endif
#if ANSWER > 100
#error not here
#endif
#pragma D option quiet

BEGIN
{
	trace(ANSWER + MORE);
	exit(0);
}
