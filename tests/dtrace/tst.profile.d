/* profile-N fires on every CPU at N Hz; tick-100ms ends the run */
profile-997
{
	hits++;
}

tick-300ms
{
	printf("sampled: %d\n", hits > 0);
	exit(0);
}
