/* Socket addresses as strace 6.1's print_sockaddr shows them: the family,
 * then its own fields when the length holds them, else the bytes. */
#include "decode.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <linux/netlink.h>

#include "fmt.h"

static void put_un(StrBuf *b, const uint8_t *d, size_t len)
{
	size_t un = len < sizeof(struct sockaddr_un) ? len : sizeof(struct sockaddr_un);
	const uint8_t *path = d + 2;
	size_t n = un - 2;
	fb_lit(b, "sun_path=");
	if (path[0]) {
		const uint8_t *z = memchr(path, 0, n);
		dec_str(b, path, z ? (size_t)(z - path) : n, SIZE_MAX, false);
	} else {
		fb_putc(b, '@');
		dec_str(b, path + 1, n - 1, SIZE_MAX, false);
	}
}

static void put_in(StrBuf *b, const uint8_t *d, size_t len)
{
	(void)len;
	struct sockaddr_in s;
	char ip[INET_ADDRSTRLEN];
	memcpy(&s, d, sizeof(s));
	inet_ntop(AF_INET, &s.sin_addr, ip, sizeof(ip));
	sb_printf(b, "sin_port=htons(%u), sin_addr=inet_addr(\"%s\")", ntohs(s.sin_port), ip);
}

static void put_in6(StrBuf *b, const uint8_t *d, size_t len)
{
	struct sockaddr_in6 s;
	char ip[INET6_ADDRSTRLEN];
	memcpy(&s, d, sizeof(s));
	inet_ntop(AF_INET6, &s.sin6_addr, ip, sizeof(ip));
	sb_printf(b, "sin6_port=htons(%u), sin6_flowinfo=htonl(%u), inet_pton(AF_INET6, \"%s\", &sin6_addr)",
		  ntohs(s.sin6_port), ntohl(s.sin6_flowinfo), ip);
	if (len > offsetof(struct sockaddr_in6, sin6_scope_id))
		sb_printf(b, ", sin6_scope_id=%u", s.sin6_scope_id);
}

static void put_nl(StrBuf *b, const uint8_t *d, size_t len)
{
	(void)len;
	struct sockaddr_nl s;
	memcpy(&s, d, sizeof(s));
	if (s.nl_pad)
		sb_printf(b, "nl_pad=%#x, ", s.nl_pad);
	sb_printf(b, "nl_pid=%d, nl_groups=%#08x", (int)s.nl_pid, s.nl_groups);
}

static const struct {
	unsigned family;
	size_t min_len;
	void (*put)(StrBuf *b, const uint8_t *d, size_t len);
} families[] = {
	{AF_UNIX, 3, put_un},
	{AF_INET, sizeof(struct sockaddr_in), put_in},
	{AF_INET6, offsetof(struct sockaddr_in6, sin6_scope_id), put_in6},
	{AF_NETLINK, sizeof(struct sockaddr_nl), put_nl},
};

bool dec_sockaddr(StrBuf *b, const uint8_t *d, size_t len)
{
	if (len < 2)
		return false;
	/* as strace: what is past the length reads as zeros */
	uint8_t buf[129];
	if (len > 128)
		len = 128;
	memset(buf, 0, sizeof(buf));
	memcpy(buf, d, len);
	uint16_t fam;
	memcpy(&fam, buf, 2);
	fb_lit(b, "{sa_family=");
	dec_sock_family(b, fam);
	if (len > 2) {
		fb_lit(b, ", ");
		size_t k = 0, n = sizeof(families) / sizeof(families[0]);
		while (k < n && families[k].family != fam)
			k++;
		if (k < n && len >= families[k].min_len) {
			families[k].put(b, buf, len);
		} else {
			fb_lit(b, "sa_data=");
			dec_str(b, buf + 2, len - 2, SIZE_MAX, false);
		}
	}
	fb_putc(b, '}');
	return true;
}
