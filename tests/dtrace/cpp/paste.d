/* # and ## */
#define STR(x) #x
#define XSTR(x) STR(x)
#define CAT(a, b) a ## b
#define XCAT(a, b) CAT(a, b)
#define VAR(n) self->CAT(v, n)
#define VERSION 3
#define SHOW(e) printf("%s = %d\n", #e, e)

BEGIN
{
	VAR(1) = 1;
	VAR(VERSION) = 2;
	XCAT(this->t, VERSION) = 3;
	trace(STR(hello "world" 'c' \n));
	trace(XSTR(VERSION));
	trace(STR(  spaced   out  ));
	SHOW(VAR(1) + 2);
	CAT(ex, it)(0);
}
