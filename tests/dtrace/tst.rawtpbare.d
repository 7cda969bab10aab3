/* rawtp:vmlinux::NAME: a bare tracepoint (sched_update_nr_running_tp: a
 * run queue's count changes, arg1 by how much), which has no tracefs event */
rawtp:vmlinux::sched_update_nr_running_tp
/(int)arg1 > 0/
{
	added++;
}

tick-100ms
/added && !printed/
{
	printed = 1;
	printf("%s: %d\n", probename, added > 0);
	exit(0);
}
