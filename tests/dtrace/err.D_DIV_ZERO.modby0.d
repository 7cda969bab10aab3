/* a modulus by a constant zero, with a variable on the left */
BEGIN
{
	x = timestamp;
	trace(x % 0);
	exit(0);
}
