/* a wrong argument is reported before the missing -w, as dtrace checks
 * destructive actions only when it enables the probes */
BEGIN
{
	chill("long");
}
