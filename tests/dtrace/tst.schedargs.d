/* sched provider on a sleeping workload: off-cpu in the thread leaving
 * (asleep: SSLEEP; args[0]/args[1]: the thread that runs next), on-cpu in the
 * thread arriving, wakeup and enqueue of the sleeper (args[0]/args[1] it,
 * args[2] the CPU it is queued on) */
sched:::off-cpu
/pid == $target && curlwpsinfo->pr_state == 1/
{
	slept = 1;
	other = other || args[0]->pr_lwpid != tid;
}

sched:::on-cpu
/pid == $target/
{
	on = on || (curlwpsinfo->pr_state == 6 && curlwpsinfo->pr_onpro == cpu);
}

sched:::wakeup
/args[1]->pr_pid == $target/
{
	woken = woken || (args[0]->pr_lwpid == $target && args[0]->pr_state == 1);
}

sched:::enqueue
/args[1]->pr_pid == $target/
{
	queued = args[2]->cpu_id >= 0;
}

END
{
	printf("slept %d next thread %d on-cpu %d woken %d queued %d\n", slept, other, on, woken,
	    queued);
}
