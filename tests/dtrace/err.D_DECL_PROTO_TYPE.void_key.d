/* void is no key type, not even second */
int counts[int, void];

BEGIN
{
	exit(0);
}
