/* Known system calls with known arguments, for tests/runtime/test_trace_*.sh:
 * the expected strace-style lines are in the test. argv[1]: a scratch path. */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/tmp/sonde_trace_known";
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
	if (write(fd, "hello\tworld\n", 12) != 12)
		return 1;
	close(fd);
	fd = open(path, O_RDONLY);
	char buf[64];
	if (read(fd, buf, sizeof(buf)) != 12)
		return 1;
	close(fd);
	open("/nonexistent/sonde", O_RDONLY);
	unlink(path);
	int s = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons(1)};
	inet_pton(AF_INET, "127.0.0.1", &sin.sin_addr);
	connect(s, (struct sockaddr *)&sin, sizeof(sin));
	close(s);
	struct timespec ts = {0, 1000000};
	nanosleep(&ts, NULL);
	kill(getpid(), 0);
	return 3;
}
