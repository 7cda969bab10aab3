/* dtrace-utils' lexer (dt_lex.l): the longest match wins, so 0x1.5 is a
 * floating-point constant (RGX_FP), not an integer and more */
BEGIN
{
	x = 0x1.5;
	exit(0);
}
