/* a macro call that never ends */
#define MAX(a, b) ((a) > (b) ? (a) : (b))

BEGIN
{
	trace(MAX(1, 2;
}
