/* trace() in the default output: the CPU ID FUNCTION:NAME columns, a string
 * left-aligned in 33 columns after two spaces, an int in " %10d", a long
 * in " %19d", a newline after the firing and one at the end */
BEGIN
{
	trace("hello");
	trace(42);
	trace(1234567890123);
	exit(0);
}
