#pragma D option ustackframes=500
BEGIN
{
	ustack();
}
