/* sched:::enqueue and dequeue on a known workload (schedwork.sh): a busy
 * loop preempted by the other one on CPU 0 is enqueued by the thread
 * itself as it leaves the CPU runnable, and dequeued when it is picked to
 * run again (args[2] the CPU picking it); moved while runnable to CPU 1, it
 * is dequeued from CPU 0's queue and enqueued on CPU 1's in one event */
sched:::enqueue
/args[1]->pr_ppid == $target && args[0]->pr_lwpid == tid/
{
	preempted = 1;
}

sched:::dequeue
/args[1]->pr_ppid == $target && args[0]->pr_lwpid != tid && args[2]->cpu_id == cpu/
{
	picked = 1;
}

sched:::dequeue
/args[1]->pr_ppid == $target && args[2]->cpu_id == 0/
{
	self->leaving = args[0]->pr_lwpid;
}

sched:::enqueue
/self->leaving == args[0]->pr_lwpid && args[2]->cpu_id == 1 && args[0]->pr_onpro == 0/
{
	moved = 1;
}

sched:::enqueue
/self->leaving/
{
	self->leaving = 0;
}

END
{
	printf("preempted %d picked %d moved %d\n", preempted, picked, moved);
}
