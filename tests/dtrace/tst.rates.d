/* aggrate, switchrate and statusrate take dtrace's rate syntax: a number
 * of nanoseconds, a time unit (ns us ms s m h d, and their long names) or
 * a frequency in hz */
#pragma D option quiet
#pragma D option aggrate=2hz
#pragma D option switchrate=50ms
#pragma D option statusrate=1s
#pragma D option cleanrate=303hz

BEGIN
{
	@ = count();
	printf("ran\n");
	exit(0);
}
