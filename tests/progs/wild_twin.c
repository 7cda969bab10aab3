/* wild_a / wild_b [N] [PERIOD_MS]: one program built twice under two names,
 * for attach points whose file is a wildcard (uprobe:build/progs/wild_*:...).
 * Calls wild_func(i) and fires its USDT probes and those of libwild_lib.so
 * N times (default 3; 0: until killed), PERIOD_MS apart (default 0), so that
 * -p tests have a live process that keeps firing. */
#include <stdlib.h>
#include <sys/sdt.h>
#include <unistd.h>

int wild_lib_call(int x);

__attribute__((noinline)) int wild_func(int x)
{
	__asm__ volatile("" ::: "memory");
	return x * 3;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 3;
	int period_ms = argc > 2 ? atoi(argv[2]) : 0;
	int sum = 0;
	for (long i = 0; n <= 0 || i < n; i++) {
		sum += wild_func((int)i);
		DTRACE_PROBE1(wild, probe1, i);
		DTRACE_PROBE1(wild, probe2, i);
		sum += wild_lib_call((int)i);
		if (period_ms)
			usleep((useconds_t)period_ms * 1000);
	}
	return sum == -1;
}
