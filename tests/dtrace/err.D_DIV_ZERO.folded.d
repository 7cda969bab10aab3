/* a divisor that folds to zero */
BEGIN
{
	c = 123 / ((7 - 7) * 999);
	exit(0);
}
