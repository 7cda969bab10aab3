/* Watchpoint target: prints the address of a global variable, waits for a
 * line on stdin (or SIGUSR1), then writes the variable N times (argv[1],
 * default 5) and exits.  The test counts the watchpoint's hits. */
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
	for (int i = 0; i < n; i++)
		watched = i + 1;
	printf("done %ld\n", watched);
	return 0;
}
