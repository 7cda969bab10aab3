/* sdt_target [N] [SLEEP_MS] [quiet]: USDT probes with semaphores in the executable and in a
 * shared library (libsdt_lib.so).  Prints how many guarded probes were
 * enabled, which shows that the kernel set the semaphores. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
#include <unistd.h>

unsigned short sonde_tick_semaphore __attribute__((section(".probes"))) = 0;
unsigned short sonde_plain_semaphore __attribute__((section(".probes"))) = 0;
#define SONDE_TICK_ENABLED() __builtin_expect(sonde_tick_semaphore, 0)

int lib_ping(int x);

struct point {
	long x, y;
};

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 3;
	int enabled = 0, lib_enabled = 0;
	struct point pts[4] = {{1, 2}, {3, 4}, {5, 6}, {7, 8}};
	volatile long idx = 2;
	if (argc > 2)
		usleep((useconds_t)atoi(argv[2]) * 1000);
	for (long i = 0; i < n; i++) {
		if (SONDE_TICK_ENABLED()) {
			enabled++;
			/* register, constant, memory operands, negative values */
			DTRACE_PROBE5(sonde, tick, i, -i - 1, 42, pts[idx].y, (short)-7);
		}
		/* not guarded: always runs */
		DTRACE_PROBE2(sonde, plain, i * 10, "hello");
		lib_enabled += lib_ping((int)i + 1);
	}
	/* quiet: nothing printed, for a tracer's -c whose output is compared */
	if (argc <= 3 || strcmp(argv[3], "quiet"))
		printf("enabled=%d lib=%d\n", enabled, lib_enabled);
	return 0;
}
