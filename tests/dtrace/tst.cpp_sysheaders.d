/* -C reads a system header's declarations, as dtrace's D compiler reads
 * what cpp makes of it: typedefs, structs, unions and enums (their
 * constants as values) of glibc's and the kernel's UAPI headers, usable in
 * sizeof, offsetof, casts and as variable types (sizes of x86-64) */
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <sys/stat.h>
#include <time.h>
#include <stdint.h>
#include <linux/types.h>
#pragma D option quiet

in_port_t port;
struct timespec ts;

BEGIN
{
	port = 8080;
	printf("sockaddr_in %d, sin_port at %d, AF_INET %d\n", sizeof(struct sockaddr_in),
	    offsetof(struct sockaddr_in, sin_port), AF_INET);
	/* IPPROTO_TCP is an enumerator (and a #define of itself) */
	printf("IPPROTO_TCP %d, SHUT_WR %d, SOCK_NONBLOCK %o\n", IPPROTO_TCP, SHUT_WR, SOCK_NONBLOCK);
	printf("timespec %d, stat %d, st_size at %d, fd_set %d\n", sizeof(struct timespec),
	    sizeof(struct stat), offsetof(struct stat, st_size), sizeof(fd_set));
	printf("sockaddr_in6 %d, sockaddr_storage %d, __be32 %d\n", sizeof(struct sockaddr_in6),
	    sizeof(struct sockaddr_storage), sizeof(__be32));
	printf("port %d (%d bytes), ts %d bytes, (in_port_t)70000 = %d, (int8_t)200 = %d\n", port,
	    sizeof(port), sizeof(ts), (in_port_t)70000, (int8_t)200);
	exit(0);
}
