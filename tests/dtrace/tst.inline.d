/* inline TYPE NAME = EXPR: a named expression of the declared type, put
 * where the name is used (so an inline of pid is each firing's pid) */
#pragma D option quiet

inline int ANSWER = 42;
inline unsigned char SMALL = 300;
inline long long BIG = 1LL << 40;
inline string GREETING = "hello";
inline int DOUBLE = ANSWER * 2;
inline int MYPID = pid;

BEGIN
/MYPID == pid/
{
	printf("%d %d %d %s %d\n", ANSWER, SMALL, BIG, GREETING, DOUBLE);
	trace(ANSWER);
	trace(SMALL);
	trace(BIG);
	printf("\n");
	exit(0);
}
