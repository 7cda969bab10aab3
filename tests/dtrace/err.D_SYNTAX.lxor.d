/* ^^ is a binary operator: a missing operand is a syntax error */
BEGIN
{
	x = 1 ^^;
}
