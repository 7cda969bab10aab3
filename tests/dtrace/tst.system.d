/* system() with -w: the command's output in the run's output */
#pragma D option quiet

BEGIN
{
	printf("before\n");
	system("echo %s %d", "hello", 42);
}

BEGIN
{
	printf("after\n");
	exit(0);
}
