/* sched:::tick fires at the scheduler's clock tick in the thread it
 * charges: a busy loop is charged ticks, and args[0]/args[1] are its
 * lwpsinfo_t/psinfo_t */
sched:::tick
/pid == $target/
{
	ticked = 1;
	same = same || (args[0]->pr_lwpid == tid && args[1]->pr_pid == pid &&
	    args[1]->pr_fname == execname && args[0]->pr_state == SONPROC);
}

END
{
	printf("ticked %d args %d\n", ticked, same);
}
