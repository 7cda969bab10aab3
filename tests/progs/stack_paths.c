/* stack_paths [N [SLEEP_MS]]: after SLEEP_MS (so that a tracer knows its
 * mappings), calls getppid() N times (default 2) from each of two
 * functions, so that user stacks differ in their second frame only: for
 * tests of stack keys cut to their first frames. */
#pragma GCC optimize("no-omit-frame-pointer")
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) void path_one(void)
{
	getppid();
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void path_two(void)
{
	getppid();
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2;
	if (argc > 2)
		usleep((useconds_t)atoi(argv[2]) * 1000);
	for (long i = 0; i < n; i++) {
		path_one();
		path_two();
	}
	return 0;
}
