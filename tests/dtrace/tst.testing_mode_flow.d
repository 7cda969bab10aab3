/* _DTRACE_TESTING with flowindent: no CPU column either */
#pragma D option flowindent

BEGIN
{
	exit(0);
}
