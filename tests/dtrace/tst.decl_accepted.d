/* declarations dtrace accepts beside the ones it refuses (err.D_DECL_*) */
#pragma D option quiet

unsigned long long total;
long int big[int, string];
int lookup(void);
int show(char *fmt, int n[4], ...);
enum bounds { LOW = -2147483648, HIGH = 2147483647 };
struct pair { int a; int b; };
self struct pair p;

BEGIN
{
	total = 1;
	big[1, "x"] = 2;
	printf("%d %d %d\n", (int)LOW, HIGH, (short int)3 + (unsigned char)4);
	exit(0);
}
