/* A program for sonde trace -f whose parent blocks while its child
 * prints, and the child while its parent prints: each call that must show
 * as "<unfinished ...>" is seen blocked (in /proc/PID/syscall) by the
 * other task before that task makes the call that prints a line, so the
 * split does not depend on timing.
 *   child: clock_nanosleep, [parent in poll] write "child", write pipe,
 *          clock_nanosleep, [parent in wait4] exit 7
 *   parent: poll, read, [child in clock_nanosleep] write "parent", wait4
 * The waits use openat and pread64, which the tests do not trace. */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Until task PID is blocked in system call NR; a fallback sleep where
 * /proc/PID/syscall cannot be read (not root under Yama). */
static void wait_blocked_in(pid_t pid, long nr)
{
	char path[64], buf[128];
	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	int fd = open(path, O_RDONLY);
	for (int i = 0; fd >= 0 && i < 200000; i++) {
		ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
		if (n <= 0)
			break;
		buf[n] = 0;
		char *end;
		if (strtol(buf, &end, 10) == nr && end != buf) {
			close(fd);
			return;
		}
		syscall(SYS_sched_yield);
	}
	if (fd >= 0)
		close(fd);
	struct timespec ts = {0, 100000000};
	nanosleep(&ts, NULL);
}

int main(void)
{
	int fd[2];
	if (pipe(fd))
		return 1;
	pid_t parent = getpid();
	pid_t p = fork();
	if (p == 0) {
		struct timespec ts = {0, 100000000};
		nanosleep(&ts, NULL);
		wait_blocked_in(parent, SYS_poll);
		if (write(1, "child\n", 6) != 6 || write(fd[1], "x", 1) != 1)
			_exit(1);
		nanosleep(&ts, NULL);
		wait_blocked_in(parent, SYS_wait4);
		_exit(7);
	}
	char c;
	struct pollfd pf = {fd[0], POLLIN, 0};
	if (poll(&pf, 1, -1) != 1 || read(fd[0], &c, 1) != 1)
		return 1;
	wait_blocked_in(p, SYS_clock_nanosleep);
	if (write(1, "parent\n", 7) != 7)
		return 1;
	int st;
	waitpid(p, &st, 0);
	return WEXITSTATUS(st) == 7 ? 0 : 1;
}
