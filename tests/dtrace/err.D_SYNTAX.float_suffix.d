/* dtrace-utils' lexer (dt_lex.l): the longest match wins, so 2f is a
 * floating-point constant (RGX_FP), not an integer and more */
BEGIN
{
	x = 2f;
	exit(0);
}
