/* Calls whose arguments sonde trace decodes by table rows and signature
 * letters, for the differential test against strace: modes as umode_t,
 * mknod's device, faccessat2's own flags, the mount API's flags, preadv2's
 * argument count, empty buffers, gid arrays, and -y on the fds a call
 * returns and on those the command inherited.  Every call fails harmlessly
 * or changes nothing. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>

int main(void)
{
	const unsigned long junk = 0xdeadbeef00000000ul;
	/* getcpu's cpu and node: pinned to CPU 0 first, so they are the
	 * same under strace and sonde */
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	unsigned cpu, node;
	if (sched_setaffinity(0, sizeof(one), &one) == 0)
		syscall(SYS_getcpu, &cpu, &node, NULL);
	syscall(SYS_getcpu, NULL, &node, (void *)8);
	syscall(SYS_mkdir, "/nonexistent/dir", junk | 0xffff0755ul);
	syscall(SYS_mknodat, -1, "node", S_IFCHR | 0644, makedev(1, 7));
	syscall(SYS_mknodat, -1, "node", S_IFIFO | 0600, makedev(1, 7));
	syscall(SYS_mknodat, -1, "node", 0xffff, 0);
	syscall(SYS_faccessat, -1, NULL, 8);
	syscall(SYS_faccessat2, -1, NULL, 0, 0x200 | 0x100);
	syscall(SYS_open_tree, -1, NULL, 1 | O_CLOEXEC);
	syscall(SYS_fspick, -1, NULL, 0xffffffffu);
	syscall(SYS_mount_setattr, -1, NULL, 0x8000, NULL, 0);
	syscall(SYS_lookup_dcookie, 0, NULL, 0);
	syscall(SYS_mlock2, 0xfacefeeddeadbeeful, 4096, 1);
	syscall(SYS_preadv2, -1, NULL, 1, 2, 0, 1);
	char c = 0;
	syscall(SYS_pwrite64, 0, &c, 0, 0);
	struct iovec none;
	syscall(SYS_pwritev2, 0, &none, 0, 0, 0, 0);
	/* a siginfo: si_errno no errno names, si_uid -1 */
	siginfo_t si;
	memset(&si, 0xff, sizeof(si));
	si.si_signo = SIGUSR1;
	si.si_code = SI_QUEUE;
	si.si_pid = 42;
	syscall(SYS_pidfd_send_signal, -1, SIGUSR2, &si, 0);
	/* EPERM unless root; as root, this process's groups only */
	gid_t two[2] = {0, 1}, g[4];
	setgroups(2, two);
	getgroups(4, g);
	getgroups(0, NULL);
	setgroups(0, NULL);
	/* -y: an inherited fd (0, /dev/null in the test), a copy, anonymous
	 * inodes */
	int d = dup(0);
	close(d);
	int pfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	close(pfd);
	return 0;
}
