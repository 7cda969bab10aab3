/* A library that dlopen_target loads while it is being sampled. */
#include <time.h>

volatile unsigned long spin_sink;

/* Busy for SECONDS; the clock is read once per million additions so that
 * nearly every sample lands in this function, not in the vDSO. */
__attribute__((noinline)) void spin_in_lib(double seconds)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		for (unsigned long i = 0; i < 1000000; i++)
			spin_sink += i;
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9 < seconds);
}
