/* sched:::sleep in a thread about to block (its state SSLEEP) and
 * sched:::preempt in a busy loop that the other one on its CPU preempts
 * (still runnable), both before the thread's off-cpu */
sched:::sleep
/pid == $target/
{
	self->sleeping = curlwpsinfo->pr_state == SSLEEP;
}

sched:::preempt
/ppid == $target/
{
	self->preempted = curlwpsinfo->pr_sname != 'S';
}

sched:::off-cpu
/self->sleeping/
{
	slept = 1;
	self->sleeping = 0;
}

sched:::off-cpu
/self->preempted/
{
	preempted = 1;
	self->preempted = 0;
}

END
{
	printf("slept %d preempted %d\n", slept, preempted);
}
