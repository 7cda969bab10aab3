/* Flags strace prints in its own table order (not the values'), unknown
 * values with strace's comment, and ids of -1 as -1: eventfd2, signalfd4
 * (its mask too), sync_file_range, fadvise64, rt_sigaction's sa_flags,
 * set*id, process_mrelease.  Every call fails harmlessly or changes
 * nothing. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/fsuid.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <unistd.h>

static void on_usr2(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)si, (void)uc;
}

int main(void)
{
	int e = eventfd(0, EFD_SEMAPHORE | EFD_CLOEXEC | EFD_NONBLOCK);
	if (e >= 0)
		close(e);
	sigset_t m;
	sigemptyset(&m);
	sigaddset(&m, SIGUSR2);
	sigaddset(&m, SIGCHLD);
	int s = signalfd(-1, &m, SFD_CLOEXEC | SFD_NONBLOCK);
	if (s >= 0)
		close(s);
	syscall(SYS_sync_file_range, -1, 0L, 0L, 0xffffffffu);
	syscall(SYS_fadvise64, -1, 0L, 0L, 0xdeadca75u);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_usr2;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR2, &sa, NULL);
	/* -1: no change */
	setregid(-1, -1);
	setresuid(-1, -1, -1);
	setfsgid(-1);
	syscall(SYS_setgid, -1);
	syscall(SYS_process_mrelease, -1, 0xfacefeedu);
	return 0;
}
