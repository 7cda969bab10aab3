/* without -q: a printable string is padded to 33 columns after the
 * probe's heading; an unprintable one's dump starts on the next line */
#pragma D option strsize=16

BEGIN
{
	trace("ok");
}

BEGIN
{
	trace("\033[31m");
	exit(0);
}
