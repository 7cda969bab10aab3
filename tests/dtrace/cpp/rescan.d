/* rescanning: a macro is not expanded inside its own expansion */
#define foo foo + 1
#define bar baz
#define baz bar
#define f(x) g(x)
#define g(x) f(x) + x
#define AA BB
#define BB(x) x * 2
#define LP (
#define ID(x) x
#define EMPTY
#define twice(x) x x

BEGIN
{
	a = foo;
	b = bar;
	c = f(1);
	d = AA(3);
	e = ID(ID(ID(4)));
	h = twice(twice(5));
	k = EMPTY 6 EMPTY;
	m = ID(LP 7);
}
