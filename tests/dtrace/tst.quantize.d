/* quantize: power-of-two buckets, negatives and 0 included, one empty row
 * above and below the data; the increment argument */
#pragma D option quiet

BEGIN
{
	@q["neg"] = quantize(-3);
	@q["neg"] = quantize(-100);
	@q["pos"] = quantize(0);
	@q["pos"] = quantize(1);
	@q["pos"] = quantize(5, 3);
	@q["pos"] = quantize(1000000);
	@z = quantize(1, 0);
	exit(0);
}
