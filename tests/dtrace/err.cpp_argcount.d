/* a macro called with too few arguments: cpp's message, then dtrace's */
#define MAX(a, b) ((a) > (b) ? (a) : (b))

BEGIN
{
	trace(MAX(1));
}
