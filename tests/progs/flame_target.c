/* A CPU-bound program with a known profile: hot_function takes about 90%
 * of the time, cold_function about 10%, both called from main.  Built at
 * -O0 with frame pointers so that every function has a frame the kernel's
 * user stack walker follows.  Usage: flame_target [SECONDS] (default 2),
 * or flame_target --loops N: a fixed amount of work (N rounds), then the
 * CPU seconds it took and its voluntary and involuntary context switches
 * on stdout (bench/flamegraph.sh measures with it: CPU
 * time leaves out waiting for a CPU on a shared machine, and still counts
 * the sampling interrupts taken while it runs, as this kernel has no
 * separate IRQ time accounting). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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

static double elapsed_on(clockid_t clk, const struct timespec *a)
{
	struct timespec b;
	clock_gettime(clk, &b);
	return (double)(b.tv_sec - a->tv_sec) + (double)(b.tv_nsec - a->tv_nsec) / 1e9;
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "--loops")) {
		long n = atol(argv[2]);
		struct timespec t0;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
		for (long i = 0; i < n; i++) {
			hot_function();
			cold_function();
		}
		double cpu = elapsed_on(CLOCK_PROCESS_CPUTIME_ID, &t0);
		struct rusage ru;
		getrusage(RUSAGE_SELF, &ru);
		printf("%.6f %ld %ld\n", cpu, ru.ru_nvcsw, ru.ru_nivcsw);
		return 0;
	}
	double secs = argc > 1 ? atof(argv[1]) : 2;
	struct timespec start;
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		hot_function();
		cold_function();
	} while (elapsed_on(CLOCK_MONOTONIC, &start) < secs);
	return 0;
}
