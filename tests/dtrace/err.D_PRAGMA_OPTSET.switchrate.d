/* a rate dtrace cannot read: D_PRAGMA_OPTSET, naming the option and value */
#pragma D option switchrate=fast

BEGIN
{
	exit(0);
}
