/* Calls that fill a socket address and its length, for the differential
 * test against strace: the length as it was at entry and as the call left
 * it ([110 => 21]), the address as long as it says, a length that cannot
 * be read, a failed call.  A unix socket at the path argv[1]. */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	struct sockaddr_un a = {.sun_family = AF_UNIX}, got;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", argv[1]);
	socklen_t alen = offsetof(struct sockaddr_un, sun_path) + strlen(a.sun_path) + 1, len;
	int l = socket(AF_UNIX, SOCK_STREAM, 0), c = socket(AF_UNIX, SOCK_STREAM, 0);
	unlink(a.sun_path);
	if (bind(l, (struct sockaddr *)&a, alen) || listen(l, 1) ||
	    connect(c, (struct sockaddr *)&a, alen))
		return 1;
	len = sizeof(got);
	getsockname(l, (struct sockaddr *)&got, &len);
	len = 4; /* shorter than the address: cut to it */
	getsockname(l, (struct sockaddr *)&got, &len);
	len = sizeof(got);
	getpeername(c, (struct sockaddr *)&got, &len);
	getsockname(l, (struct sockaddr *)&got, NULL);
	len = sizeof(got);
	getsockname(-1, (struct sockaddr *)&got, &len);
	len = sizeof(got);
	int s = accept4(l, (struct sockaddr *)&got, &len, SOCK_CLOEXEC);
	/* a datagram with its sender */
	int d[2];
	socketpair(AF_UNIX, SOCK_DGRAM, 0, d);
	send(d[0], "hi", 2, 0);
	char buf[1];
	len = sizeof(got);
	recvfrom(d[1], buf, sizeof(buf), MSG_TRUNC, (struct sockaddr *)&got, &len);
	close(s);
	unlink(a.sun_path);
	return 0;
}
