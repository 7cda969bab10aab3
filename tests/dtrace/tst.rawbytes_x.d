/* -x rawbytes: the same as the pragma; without it (tst.trace.d) strings
 * print as text */
BEGIN
{
	trace("dtrace");
	exit(0);
}
