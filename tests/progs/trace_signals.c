/* Signals for sonde trace's differential test: a handled SIGUSR1 from kill,
 * SIGUSR2 from raise (tgkill), a queued real-time signal, an ignored SIGCHLD
 * of a child that exits 3 and one of a child killed by SIGSEGV. */
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int got;
static void on_sig(int s)
{
	got += s;
}

int main(void)
{
	struct sigaction sa = {.sa_handler = on_sig};
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sigaction(SIGRTMIN, &sa, NULL);
	kill(getpid(), SIGUSR1);
	raise(SIGUSR2);
	sigqueue(getpid(), SIGRTMIN, (union sigval){.sival_int = 42});
	pid_t p = fork();
	if (p == 0)
		_exit(3);
	int st;
	waitpid(p, &st, 0);
	p = fork();
	if (p == 0) {
		struct rlimit r = {0, 0};
		setrlimit(RLIMIT_CORE, &r);
		*(volatile int *)(uintptr_t)8 = 1;
		_exit(0);
	}
	waitpid(p, &st, 0);
	return got == SIGUSR1 + SIGUSR2 + SIGRTMIN ? 0 : 1;
}
