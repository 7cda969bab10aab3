/* getppid_loop [N]: makes exactly N (default 1) getppid system calls, for
 * runtime tests that count them. */
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1;
	for (long i = 0; i < n; i++)
		getppid();
	return 0;
}
