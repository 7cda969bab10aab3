/* normalize divides what is printed; denormalize undoes it */
#pragma D option quiet

BEGIN
{
	@n["a"] = sum(1000);
	@n["b"] = sum(500);
	@q = quantize(8, 10);
	normalize(@n, 10);
	normalize(@q, 5);
	printa(@n);
	denormalize(@n);
	printa(@n);
	exit(0);
}
