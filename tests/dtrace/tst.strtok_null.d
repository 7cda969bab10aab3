/* strtok() reads a NULL string (no earlier strtok() on this thread to go on
 * with) or a NULL delimiter set: a fault, as in dtrace */
#pragma D option quiet

BEGIN
{
	printf("[%s]\n", strtok(NULL, "!"));
	printf("not reached\n");
}

BEGIN
{
	strtok("abc", NULL);
	printf("not reached either\n");
}

BEGIN
{
	printf("[%s]", strtok("a,b", ","));
	printf("[%s]\n", strtok(NULL, ","));
	exit(0);
}

ERROR
{
	printf("fault %d at %x\n", arg4, arg5);
}
