/* progenyof(): dtrace itself descends from its parent and from init */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d\n", progenyof(pid), progenyof(ppid), progenyof(1),
	    progenyof(999999999));
	exit(0);
}
