/* args[] beyond the probe's arguments */
proc:::create
{
	trace(args[1]->pr_pid);
}
