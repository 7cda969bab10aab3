/* aggsize sizes the aggregations: 80 bytes hold 5 keys of 8 bytes with
 * 8-byte counts, so 3 of the 8 keys are dropped and dtrace's "N
 * aggregation drops on CPU C" is printed.  In BEGIN, so that all drops
 * happen before sonde looks at the counts. */
#pragma D option aggsize=80

BEGIN
{
	@[1] = count(); @[2] = count(); @[3] = count(); @[4] = count();
	@[5] = count(); @[6] = count(); @[7] = count(); @[8] = count();
	@[1] = count();
	exit(0);
}
