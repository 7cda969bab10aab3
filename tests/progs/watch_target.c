/* Watchpoint target: prints the address of a global variable, waits for a
 * line on stdin (or SIGUSR1), passes the variable's address to
 * watch_start() (its first argument: for watchpoint:watch_start+arg0),
 * sleeps argv[2] milliseconds if given (time for an asyncwatchpoint to be
 * put in place), then writes the variable N times (argv[1], default 5);
 * all this argv[3] times (default once); then exits.  The
 * test counts the watchpoint's hits. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

volatile long watched;
static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

/* not inlined, not optimized away: the uprobe's function */
__attribute__((noinline)) void watch_start(volatile long *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 5;
	signal(SIGUSR1, on_usr1);
	printf("%p\n", (void *)&watched);
	fflush(stdout);
	char line[64];
	while (!go) {
		if (!fgets(line, sizeof(line), stdin)) {
			/* stdin closed: wait for the signal instead */
			while (!go)
				pause();
			break;
		}
		go = 1;
	}
	int rounds = argc > 3 ? atoi(argv[3]) : 1;
	for (int r = 0; r < rounds; r++) {
		watch_start(&watched);
		if (argc > 2)
			usleep((useconds_t)atoi(argv[2]) * 1000);
		for (int i = 0; i < n; i++)
			watched = i + 1;
	}
	printf("done %ld\n", watched);
	return 0;
}
