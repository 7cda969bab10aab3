/* A declared global stores and reads at its declared width and sign; an
 * undeclared one, a thread-local, a clause-local and an array element take
 * the type of their first assignment (D's rule), and trace() prints each
 * by its size and sign (" %10d" for an int, " %3d" for a char, " %19d"
 * for a long). */
int x;
char c;
short s;
unsigned char uc;
long l;
string str;
self int st;
int a[int];

BEGIN
{
	x = 0x1ffffffff;
	c = 511;
	s = 70000;
	uc = -1;
	l = 0x1ffffffff;
	trace(x);
	trace(c);
	trace(s);
	trace(uc);
	trace(l);
}

BEGIN
{
	u = 3;
	u = 1L << 40;
	self->t = (short)-2;
	self->st = 0x100000005;
	this->v = (char)-3;
	this->v += 1000;
	a[1] = 0x1ffffffff;
	a[2] = 5;
	a[2] *= 0x40000000;
	trace(u);
	trace(self->t);
	trace(self->st);
	trace(this->v);
	trace(a[1]);
	trace(a[2]);
}

BEGIN
{
	printf("%d %d %d %u|%s|\n", x, c, s, uc, str);
	str = "abc";
	c++;
	x -= 1;
	printf("%d %d %s %d\n", x, c, str, sizeof(x));
	exit(0);
}
