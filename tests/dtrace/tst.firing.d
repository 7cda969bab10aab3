/* A firing's output is one ring-buffer record: with every CPU firing at
 * once, each firing's lines stay together (the filter deletes each "a N"
 * line followed by its own "b N" and "c N": nothing else may remain) */
profile-4001
{
	printf("a %d\n", cpu);
	printf("b %d\n", cpu);
	printf("c %d\n", cpu);
}

tick-400ms
{
	exit(0);
}
