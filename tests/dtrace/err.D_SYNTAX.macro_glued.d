/* a macro variable is a token of its own: "123$pid" is two constants in a
 * row, a syntax error at the macro (dtrace-utils: scripting/err.D_SYNTAX.pid) */
BEGIN
{
	i = 0x1f$pid;
	exit(0);
}
