/* A program for sonde trace's restart_syscall: a sleep that a stop signal
 * interrupts is resumed by restart_syscall once the process continues.
 * A child does the signals, each once it sees (in /proc) this process
 * where the signal must find it, so no timing decides the calls:
 *   parent: clock_nanosleep 60 s     child: [parent sleeping] SIGSTOP,
 *           (stopped, continued)            [parent stopped] SIGCONT,
 *           restart_syscall                 [parent in restart_syscall]
 *           (SIGUSR1's handler: EINTR)      SIGUSR1, exit
 *           wait4
 * SIGCHLD stays blocked: under ptrace (strace) an ignored signal still
 * interrupts a sleep, untraced it does not. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* the first field of /proc/PID/FILE as a number (syscall) or a char (stat's state) */
static int proc_field(pid_t pid, const char *file)
{
	char path[64], buf[256];
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	if (file[0] == 's' && file[1] == 'y')
		return atoi(buf);
	char *r = strrchr(buf, ')'); /* stat: "pid (comm) S ..." */
	return r && r[1] && r[2] ? r[2] : -1;
}

/* until pid sleeps in call nr (-1: any), or is stopped (nr -2) */
static void wait_for(pid_t pid, int nr)
{
	for (long i = 0; i < 20000000; i++) {
		int st = proc_field(pid, "stat");
		if (nr == -2 ? (st == 'T' || st == 't')
			     : st == 'S' && proc_field(pid, "syscall") == nr)
			return;
		syscall(SYS_sched_yield);
	}
	_exit(3);
}

static void on_usr1(int sig)
{
	(void)sig;
}

static void signaller(pid_t parent)
{
	wait_for(parent, SYS_clock_nanosleep);
	kill(parent, SIGSTOP);
	wait_for(parent, -2);
	kill(parent, SIGCONT);
	wait_for(parent, SYS_restart_syscall);
	kill(parent, SIGUSR1);
	_exit(0);
}

int main(void)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	struct sigaction sa = {.sa_handler = on_usr1};
	sigaction(SIGUSR1, &sa, NULL);
	pid_t parent = getpid(), child = fork();
	if (child == 0)
		signaller(parent);
	struct timespec req = {60, 0}, rem;
	int r = clock_nanosleep(CLOCK_REALTIME, 0, &req, &rem);
	waitpid(child, NULL, 0);
	return r == EINTR ? 0 : 1;
}
