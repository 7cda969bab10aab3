/* tick-N: units (1ms), and exit from the fifth firing */
tick-1ms
{
	n++;
}

tick-1ms
/n == 5/
{
	printf("%s:%s fired %d times\n", probeprov, probename, n);
	exit(0);
}
