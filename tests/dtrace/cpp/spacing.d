/* tokens that would read as others side by side get a space */
#define NEG -1
#define PLUS +
#define E
#define NAME syscall
#define FN read

NAME::FN:entry
{
	x = -NEG;
	y = 1 PLUS+ 2;
	z = a E b;
	w = NEG-NEG;
	tick-1s;
	v = x/ E *y;
}
