/* A program for sonde trace's restart_syscall: a sleep that a stop signal
 * interrupts is resumed by restart_syscall once the process continues.
 * The parent does the signals, each once it sees the sleeper where the
 * signal must find it, so no timing decides the calls:
 *   child:  clock_nanosleep 60 s     parent: [child sleeping, /proc] SIGSTOP,
 *           (stopped, continued)             [child's group stop, wait4
 *                                            WUNTRACED] SIGCONT,
 *           restart_syscall                  [child in restart_syscall] SIGUSR1,
 *           (SIGUSR1's handler: EINTR)       wait4
 * The parent waits for the group stop itself, not for /proc's 't': under
 * ptrace (strace) the signal-delivery stop also shows 't', and a SIGCONT
 * sent then discards the stop before it happens. Only the real parent's
 * wait sees the group stop, hence the sleeper is the child.
 * SIGCHLD stays blocked: under ptrace an ignored signal still interrupts a
 * sleep or shows as delivered; untraced it does not. */
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

/* until pid sleeps in call nr */
static void wait_sleeping_in(pid_t pid, int nr)
{
	for (long i = 0; i < 20000000; i++) {
		if (proc_field(pid, "stat") == 'S' && proc_field(pid, "syscall") == nr)
			return;
		syscall(SYS_sched_yield);
	}
	kill(pid, SIGKILL);
	exit(3);
}

static void on_usr1(int sig)
{
	(void)sig;
}

static int sleeper(void)
{
	struct timespec req = {60, 0}, rem;
	return clock_nanosleep(CLOCK_REALTIME, 0, &req, &rem);
}

int main(void)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	struct sigaction sa = {.sa_handler = on_usr1};
	sigaction(SIGUSR1, &sa, NULL);
	pid_t child = fork();
	if (child == 0)
		_exit(sleeper());
	int st = 0;
	wait_sleeping_in(child, SYS_clock_nanosleep);
	kill(child, SIGSTOP);
	if (waitpid(child, &st, WUNTRACED) != child || !WIFSTOPPED(st))
		return 2;
	kill(child, SIGCONT);
	wait_sleeping_in(child, SYS_restart_syscall);
	kill(child, SIGUSR1);
	waitpid(child, &st, 0);
	return WIFEXITED(st) && WEXITSTATUS(st) == 4 /* EINTR */ ? 0 : 1;
}
