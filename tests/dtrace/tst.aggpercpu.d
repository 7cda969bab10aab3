/* aggpercpu: under each value, "\n    [CPU N]" and that CPU's own value
 * for every CPU; min/max of a CPU that saw nothing show DTrace's starting
 * values.  BEGIN runs on one CPU: the filter drops the other CPUs' lines
 * (their default values) and the CPU's number, as the machine decides them. */
#pragma D option aggpercpu
BEGIN
{
	@c = count();
	@c = count();
	@m = min(5);
	@x = max(-3);
	@s["k"] = sum(40);
	exit(0);
}
