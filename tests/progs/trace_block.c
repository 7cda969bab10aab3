/* A program for sonde trace -f whose parent blocks while its child
 * prints: poll on a pipe the child writes, then wait4 for the child, which
 * sleeps first so that both calls are entered before its lines. */
#include <poll.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	int fd[2];
	if (pipe(fd))
		return 1;
	pid_t p = fork();
	if (p == 0) {
		struct timespec ts = {0, 100000000};
		nanosleep(&ts, NULL);
		if (write(1, "child\n", 6) != 6 || write(fd[1], "x", 1) != 1)
			_exit(1);
		nanosleep(&ts, NULL);
		_exit(7);
	}
	char c;
	struct pollfd pf = {fd[0], POLLIN, 0};
	if (poll(&pf, 1, -1) != 1 || read(fd[0], &c, 1) != 1)
		return 1;
	int st;
	waitpid(p, &st, 0);
	return WEXITSTATUS(st) == 7 ? 0 : 1;
}
