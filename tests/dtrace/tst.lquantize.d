/* lquantize: "< low" and ">= high" rows, the default step of 1, increments */
#pragma D option quiet

BEGIN
{
	@a = lquantize(-5, 0, 100, 10);
	@a = lquantize(15, 0, 100, 10);
	@a = lquantize(17, 0, 100, 10);
	@a = lquantize(250, 0, 100, 10, 4);
	@b = lquantize(2, 0, 5);
	@c = lquantize(95, 0, 100, 10);
	exit(0);
}
