#pragma D option quiet

BEGIN
{
	trace("quiet by pragma");
	exit(0);
}
