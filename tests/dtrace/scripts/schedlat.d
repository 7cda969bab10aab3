#!/usr/sbin/dtrace -s
/*
 * schedlat.d - run queue latency: from a thread's wakeup to its run on a
 * CPU, as a power-of-two distribution per process name.
 */
#pragma D option quiet

sched:::enqueue
{
	queued[args[0]->pr_lwpid] = timestamp;
}

sched:::on-cpu
/queued[tid]/
{
	@latency_ns[execname] = quantize(timestamp - queued[tid]);
	queued[tid] = 0;
}
