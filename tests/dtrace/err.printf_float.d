/* D has no floating point: %f takes no D value */
BEGIN
{
	printf("%f\n", 1);
	exit(0);
}
