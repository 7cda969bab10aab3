#!/usr/sbin/dtrace -s
/*
 * oncpu.d - how long threads run once on a CPU, as a power-of-two
 * distribution of microseconds per process name, and the number of
 * times each went off the CPU.
 */
#pragma D option quiet

sched:::on-cpu
{
	self->on = timestamp;
}

sched:::off-cpu
/self->on/
{
	@us[execname] = quantize((timestamp - self->on) / 1000);
	@switches[execname] = count();
	self->on = 0;
}

dtrace:::END
{
	printf("On-CPU time (us):\n");
	printa(@us);
	printf("Off-CPU switches:\n");
	printa("  %-20s %@8d\n", @switches);
}
