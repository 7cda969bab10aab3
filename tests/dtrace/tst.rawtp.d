/* rawtp:CATEGORY::NAME: a raw tracepoint */
rawtp:sched::sched_switch
{
	n++;
}

tick-100ms
{
	printf("%s switches: %d\n", probename, n > 0);
	exit(0);
}
