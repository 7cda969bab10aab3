/* readv/writev, pwritev, sendmsg/recvmsg and clone3 for sonde trace's differential
 * test: all on a pipe and a socketpair, with known contents. */
#define _GNU_SOURCE
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	int p[2], sv[2];
	if (pipe(p) || socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return 1;
	char a[] = "hello, ", bb[] = "vectored world with a long tail of text\n";
	struct iovec w[2] = {{a, strlen(a)}, {bb, strlen(bb)}};
	if (writev(p[1], w, 2) < 0)
		return 1;
	char r1[4], r2[64];
	struct iovec r[2] = {{r1, sizeof(r1)}, {r2, sizeof(r2)}};
	if (readv(p[0], r, 2) < 0)
		return 1;
	struct msghdr m = {.msg_iov = w, .msg_iovlen = 2};
	if (sendmsg(sv[0], &m, 0) < 0)
		return 1;
	struct msghdr mr = {.msg_iov = r, .msg_iovlen = 2};
	if (recvmsg(sv[1], &mr, 0) < 0)
		return 1;
	/* an iovec array cut by an unmapped page after its first element:
	 * pwritev fails (EFAULT), strace shows where it could not read */
	char *pg = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pg == MAP_FAILED || munmap(pg + 4096, 4096))
		return 1;
	struct iovec *cut = (struct iovec *)(pg + 4096 - sizeof(*cut));
	*cut = (struct iovec){a, strlen(a)};
	pwritev(p[1], cut, 2, 0);
	struct clone_args ca;
	memset(&ca, 0, sizeof(ca));
	ca.exit_signal = SIGCHLD;
	long pid = syscall(SYS_clone3, &ca, sizeof(ca));
	if (pid == 0)
		_exit(0);
	if (pid < 0)
		return 1;
	waitpid((pid_t)pid, NULL, 0);
	return 0;
}
