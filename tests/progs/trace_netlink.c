/* netlink messages for sonde trace's differential test: header-only
 * nfnetlink requests of several kinds, a generic one with a payload, route
 * messages with their family headers and attributes, sent to the kernel (which may refuse them: the arguments are the test).
 * The sockets are bound first, as strace's own tests bind theirs: strace
 * finds a socket's protocol through sock_diag, which lists an unbound
 * netlink socket only after its first send (that send strace shows raw). */
#include <linux/netfilter/nfnetlink.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int nl_socket(int proto)
{
	int fd = socket(AF_NETLINK, SOCK_RAW, proto);
	struct sockaddr_nl a = {.nl_family = AF_NETLINK};
	if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static void send_msg(int fd, uint16_t type, uint16_t flags, const void *payload, size_t n)
{
	struct {
		struct nlmsghdr h;
		char data[16];
	} m;
	memset(&m, 0, sizeof(m));
	m.h.nlmsg_len = (uint32_t)(NLMSG_HDRLEN + n);
	m.h.nlmsg_type = type;
	m.h.nlmsg_flags = flags;
	memcpy(m.data, payload, n);
	sendto(fd, &m, m.h.nlmsg_len, MSG_DONTWAIT, NULL, 0);
}

int main(void)
{
	int nf = nl_socket(NETLINK_NETFILTER);
	if (nf >= 0) {
		send_msg(nf, NFNL_SUBSYS_ACCT << 8 | 0, NLM_F_REQUEST | NLM_F_CREATE, NULL, 0);
		send_msg(nf, NFNL_SUBSYS_ACCT << 8 | 0xff, NLM_F_REQUEST, NULL, 0);
		send_msg(nf, NFNL_SUBSYS_NFTABLES << 8 | 1, NLM_F_REQUEST | NLM_F_DUMP, NULL, 0);
		send_msg(nf, NFNL_SUBSYS_CTHELPER << 8 | 2, NLM_F_REQUEST | NLM_F_NONREC, NULL, 0);
		close(nf);
	}
	int rt = nl_socket(NETLINK_ROUTE);
	if (rt >= 0) {
		/* a header alone; dcbmsg with an attribute no name is for;
		 * netconfmsg with an ifindex attribute */
		send_msg(rt, RTM_GETLINK, NLM_F_REQUEST | NLM_F_DUMP, NULL, 0);
		send_msg(rt, RTM_GETDCB, NLM_F_REQUEST, "\1\0\0\0\10\0\377\77abcd", 12);
		send_msg(rt, RTM_GETNETCONF, NLM_F_REQUEST | NLM_F_DUMP, "\2\0\0\0\10\0\1\0\1\0\0\0", 12);
		close(rt);
	}
	/* socket's protocol by the family's names (and one no name is for) */
	int raw = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	if (raw >= 0)
		close(raw);
	int unknown = socket(AF_NETLINK, SOCK_RAW, 0x1e);
	if (unknown >= 0)
		close(unknown);
	int gen = nl_socket(NETLINK_GENERIC);
	if (gen >= 0) {
		send_msg(gen, 0x10 /* nlctrl */, NLM_F_REQUEST | 0x300, "\3\0\0\0", 4);
		close(gen);
	}
	return 0;
}
