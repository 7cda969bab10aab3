/* getsockopt and setsockopt, for the differential test against strace: the
 * level and option decide what the value is (an int, struct linger, struct
 * ucred, an errno, an ICMP filter, netlink's memberships), a value cut short
 * by its length, lengths in and out ([8 => 4]), a length that cannot be
 * read, a failed call, an option sonde has no row for (a string). */
#define _GNU_SOURCE
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/icmp.h>
#include <linux/netlink.h>
#include <netinet/in.h>

int main(void)
{
	int sv[2], v = 1;
	socklen_t len = sizeof(v);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return 1;
	setsockopt(sv[0], SOL_SOCKET, SO_KEEPALIVE, &v, sizeof(v));
	getsockopt(sv[0], SOL_SOCKET, SO_KEEPALIVE, &v, &len);
	len = 8; /* more room than an int: [8 => 4] */
	int two[2];
	getsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, two, &len);
	len = 2; /* less: its two bytes in hex */
	getsockopt(sv[0], SOL_SOCKET, SO_TYPE, two, &len);
	struct linger l = {1, 5};
	setsockopt(sv[0], SOL_SOCKET, SO_LINGER, &l, sizeof(l));
	len = sizeof(l);
	getsockopt(sv[0], SOL_SOCKET, SO_LINGER, &l, &len);
	len = 6;
	getsockopt(sv[0], SOL_SOCKET, SO_LINGER, &l, &len);
	struct ucred cr;
	len = sizeof(cr);
	getsockopt(sv[0], SOL_SOCKET, SO_PEERCRED, &cr, &len);
	len = sizeof(v);
	getsockopt(sv[0], SOL_SOCKET, SO_ERROR, &v, &len);
	getsockopt(sv[0], SOL_SOCKET, SO_ERROR, &v, NULL);
	len = sizeof(v);
	getsockopt(-1, SOL_SOCKET, SO_ERROR, &v, &len);
	setsockopt(sv[0], SOL_SOCKET, SO_BINDTODEVICE, "lo", 3);
	setsockopt(sv[0], SOL_SOCKET, 0x7777, &v, 2);
	setsockopt(-1, 0x7777, 3, &v, sizeof(v));
	/* an ICMP filter: the types it holds, or ~ and those it does not */
	struct icmp_filter f = {(1 << ICMP_ECHO) | (1 << ICMP_REDIRECT)};
	setsockopt(-1, SOL_RAW, ICMP_FILTER, &f, sizeof(f));
	f.data = ~f.data;
	setsockopt(-1, SOL_RAW, ICMP_FILTER, &f, sizeof(f));
	int nl = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	if (nl >= 0) {
		v = 1;
		setsockopt(nl, SOL_NETLINK, NETLINK_PKTINFO, &v, sizeof(v));
		len = sizeof(v);
		getsockopt(nl, SOL_NETLINK, NETLINK_PKTINFO, &v, &len);
		v = 3; /* RTNLGRP_NEIGH: a group to list */
		setsockopt(nl, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &v, sizeof(v));
		unsigned groups[2];
		len = sizeof(groups);
		getsockopt(nl, SOL_NETLINK, NETLINK_LIST_MEMBERSHIPS, groups, &len);
		close(nl);
	}
	return 0;
}
