/* A CPU-bound program with a known profile: hot_function takes about 90%
 * of the time, cold_function about 10%, both called from main.  Built at
 * -O0 with frame pointers so that every function has a frame the kernel's
 * user stack walker follows.  Usage: flame_target [SECONDS] (default 2). */
#include <stdlib.h>
#include <time.h>

volatile unsigned long sink;

__attribute__((noinline)) void hot_function(void)
{
	for (unsigned long i = 0; i < 900000; i++)
		sink += i * i;
}

__attribute__((noinline)) void cold_function(void)
{
	for (unsigned long i = 0; i < 100000; i++)
		sink += i * i;
}

static double elapsed(const struct timespec *a)
{
	struct timespec b;
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a->tv_sec) + (double)(b.tv_nsec - a->tv_nsec) / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 2;
	struct timespec start;
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		hot_function();
		cold_function();
	} while (elapsed(&start) < secs);
	return 0;
}
