/* cpp goes on after a misplaced #else and reports each, with the line the
 * conditional began on; dtrace shows them as its cpp names the script, on
 * standard input: /dev/stdin, no column, no source line
 * (dtrace-utils' preprocessor/err.mulelse) */
#if !defined(FLAG)
#define VALUE 5
#else
#define VALUE 10
#else
#define VALUE 15
#endif
#else

BEGIN
{
	trace(VALUE);
	exit(0);
}
