/* getsockopt(2) and setsockopt(2) as strace 6.1 prints them: the level and
 * the option by the level's table, the value by what the (level, option)
 * pair says it is.  A new option is a row of opts[] (its kind of value), a
 * new level a row of names[]. */
#include "calldec.h"

#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <linux/can.h>
#include <linux/can/raw.h>
#include <linux/icmp.h>
#include <linux/netlink.h>
#include <linux/socket.h>

#include "decode.h"
#include "decode_tables.h"
#include "fmt.h"

/* strace's socketlayers; the ones only the kernel's include/linux/socket.h
 * defines by their number */
static const FlagName levels[] = {
	N(SOL_IP), N(SOL_SOCKET), N(SOL_TCP), N(SOL_UDP), N(AF_VSOCK), N(SOL_IPV6),
	N(SOL_ICMPV6), N(SOL_CAN_BASE), N(SOL_CAN_RAW), {132, "SOL_SCTP"}, {136, "SOL_UDPLITE"},
	N(SOL_RAW), {256, "SOL_IPX"}, {257, "SOL_AX25"}, {258, "SOL_ATALK"}, {259, "SOL_NETROM"},
	{260, "SOL_ROSE"}, N(SOL_DECNET), N(SOL_X25), N(SOL_PACKET), N(SOL_ATM), N(SOL_AAL),
	N(SOL_IRDA), N(SOL_NETBEUI), N(SOL_LLC), N(SOL_DCCP), N(SOL_NETLINK), N(SOL_TIPC),
	N(SOL_RXRPC), N(SOL_PPPOL2TP), N(SOL_BLUETOOTH), N(SOL_PNPIPE), N(SOL_RDS), N(SOL_IUCV),
	N(SOL_CAIF), N(SOL_ALG), N(SOL_NFC), N(SOL_KCM), N(SOL_TLS), N(SOL_XDP), END};

static const FlagName so_names[] = {
	N(SO_DEBUG), N(SO_REUSEADDR), N(SO_TYPE), N(SO_ERROR), N(SO_DONTROUTE), N(SO_BROADCAST),
	N(SO_SNDBUF), N(SO_RCVBUF), N(SO_KEEPALIVE), N(SO_OOBINLINE), N(SO_NO_CHECK),
	N(SO_PRIORITY), N(SO_LINGER), N(SO_BSDCOMPAT), N(SO_REUSEPORT), N(SO_PASSCRED),
	N(SO_PEERCRED), N(SO_RCVLOWAT), N(SO_SNDLOWAT), N(SO_RCVTIMEO_OLD), N(SO_SNDTIMEO_OLD),
	N(SO_SECURITY_AUTHENTICATION), N(SO_SECURITY_ENCRYPTION_TRANSPORT),
	N(SO_SECURITY_ENCRYPTION_NETWORK), N(SO_BINDTODEVICE), N(SO_DETACH_FILTER),
	N(SO_PEERNAME), N(SO_TIMESTAMP_OLD), N(SO_ACCEPTCONN), N(SO_PEERSEC), N(SO_SNDBUFFORCE),
	N(SO_RCVBUFFORCE), N(SO_PASSSEC), N(SO_TIMESTAMPNS_OLD), N(SO_MARK),
	N(SO_TIMESTAMPING_OLD), N(SO_PROTOCOL), N(SO_DOMAIN), N(SO_RXQ_OVFL), N(SO_WIFI_STATUS),
	N(SO_PEEK_OFF), N(SO_NOFCS), N(SO_LOCK_FILTER), N(SO_SELECT_ERR_QUEUE), N(SO_BUSY_POLL),
	N(SO_MAX_PACING_RATE), N(SO_BPF_EXTENSIONS), N(SO_INCOMING_CPU), N(SO_ATTACH_BPF),
	N(SO_ATTACH_REUSEPORT_CBPF), N(SO_ATTACH_REUSEPORT_EBPF), N(SO_CNX_ADVICE),
	N(SO_MEMINFO), N(SO_INCOMING_NAPI_ID), N(SO_COOKIE), N(SO_PEERGROUPS), N(SO_ZEROCOPY),
	N(SO_TXTIME), N(SO_BINDTOIFINDEX), N(SO_TIMESTAMP_NEW), N(SO_TIMESTAMPNS_NEW),
	N(SO_TIMESTAMPING_NEW), N(SO_RCVTIMEO_NEW), N(SO_SNDTIMEO_NEW),
	N(SO_DETACH_REUSEPORT_BPF), N(SO_PREFER_BUSY_POLL), N(SO_BUSY_POLL_BUDGET),
	N(SO_NETNS_COOKIE), N(SO_BUF_LOCK), N(SO_RESERVE_MEM), N(SO_TXREHASH), N(SO_RCVMARK),
	END};
/* 26 is named for the direction it goes */
static const FlagName so_get_only[] = {N(SO_GET_FILTER), END};
static const FlagName so_set_only[] = {N(SO_ATTACH_FILTER), END};
static const FlagName netlink_names[] = {
	N(NETLINK_ADD_MEMBERSHIP), N(NETLINK_DROP_MEMBERSHIP), N(NETLINK_PKTINFO),
	N(NETLINK_BROADCAST_ERROR), N(NETLINK_NO_ENOBUFS), N(NETLINK_RX_RING),
	N(NETLINK_TX_RING), N(NETLINK_LISTEN_ALL_NSID), N(NETLINK_LIST_MEMBERSHIPS),
	N(NETLINK_CAP_ACK), N(NETLINK_EXT_ACK), N(NETLINK_GET_STRICT_CHK), END};
static const FlagName txrehash[] = {N(SOCK_TXREHASH_DEFAULT), N(SOCK_TXREHASH_DISABLED),
				    N(SOCK_TXREHASH_ENABLED), END};
static const FlagName raw_names[] = {N(ICMP_FILTER), END};
static const FlagName icmp_types[] = {
	N(ICMP_ECHOREPLY), N(ICMP_DEST_UNREACH), N(ICMP_SOURCE_QUENCH), N(ICMP_REDIRECT),
	N(ICMP_ECHO), N(ICMP_TIME_EXCEEDED), N(ICMP_PARAMETERPROB), N(ICMP_TIMESTAMP),
	N(ICMP_TIMESTAMPREPLY), N(ICMP_INFO_REQUEST), N(ICMP_INFO_REPLY), N(ICMP_ADDRESS),
	N(ICMP_ADDRESSREPLY), END};

/* the option names of a level: strace's unknown-name comment; NULL names:
 * the option as an unsigned number */
typedef struct Level {
	unsigned level;
	const FlagName *names, *get_names, *set_names;
	const char *unknown;
} Level;
static const Level level_names[] = {
	{SOL_SOCKET, so_names, so_get_only, so_set_only, "SO_???"},
	{SOL_NETLINK, netlink_names, NULL, NULL, "NETLINK_???"},
	{SOL_RAW, raw_names, NULL, NULL, "RAW_???"},
};

/* what the value is */
enum {
	V_DEFAULT, /* an int when 4 bytes long, else a string */
	V_INT,     /* an int (shorter: get's bytes in hex, set's address) */
	V_LINGER,  /* struct linger */
	V_UCRED,   /* struct ucred */
	V_ERROR,   /* an errno */
	V_ICMP,    /* struct icmp_filter: a set of ICMP types */
	V_NL_INT,  /* a netlink option: an int */
	V_NL_LIST, /* NETLINK_LIST_MEMBERSHIPS: an array of u32 */
	V_ADDR,    /* shown as its address */
	V_TXREHASH, /* SO_TXREHASH's int: SOCK_TXREHASH_* (shorter: as V_INT) */
};
typedef struct Opt {
	unsigned level, name;
	uint8_t get, set; /* V_* */
} Opt;
#define SO_INT(x) {SOL_SOCKET, x, V_INT, V_INT}
static const Opt opts[] = {
	{SOL_SOCKET, SO_LINGER, V_LINGER, V_LINGER}, {SOL_SOCKET, SO_PEERCRED, V_UCRED, V_DEFAULT},
	{SOL_SOCKET, SO_ERROR, V_ERROR, V_DEFAULT}, {SOL_SOCKET, SO_ATTACH_FILTER, V_ADDR, V_ADDR},
	{SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, V_DEFAULT, V_ADDR},
	{SOL_SOCKET, SO_TXREHASH, V_TXREHASH, V_TXREHASH},
	SO_INT(SO_DEBUG), SO_INT(SO_REUSEADDR), SO_INT(SO_DONTROUTE), SO_INT(SO_BROADCAST),
	SO_INT(SO_SNDBUF), SO_INT(SO_RCVBUF), SO_INT(SO_KEEPALIVE), SO_INT(SO_OOBINLINE),
	SO_INT(SO_NO_CHECK), SO_INT(SO_PRIORITY), SO_INT(SO_BSDCOMPAT), SO_INT(SO_REUSEPORT),
	SO_INT(SO_PASSCRED), SO_INT(SO_RCVLOWAT), SO_INT(SO_SNDLOWAT), SO_INT(SO_DETACH_FILTER),
	SO_INT(SO_TIMESTAMP_OLD), SO_INT(SO_ACCEPTCONN), SO_INT(SO_SNDBUFFORCE),
	SO_INT(SO_RCVBUFFORCE), SO_INT(SO_PASSSEC), SO_INT(SO_TIMESTAMPNS_OLD), SO_INT(SO_MARK),
	SO_INT(SO_TIMESTAMPING_OLD), SO_INT(SO_RXQ_OVFL), SO_INT(SO_WIFI_STATUS),
	SO_INT(SO_PEEK_OFF), SO_INT(SO_NOFCS), SO_INT(SO_LOCK_FILTER), SO_INT(SO_SELECT_ERR_QUEUE),
	SO_INT(SO_BUSY_POLL), SO_INT(SO_INCOMING_CPU), SO_INT(SO_CNX_ADVICE),
	SO_INT(SO_INCOMING_NAPI_ID), SO_INT(SO_ZEROCOPY), SO_INT(SO_TIMESTAMP_NEW),
	SO_INT(SO_TIMESTAMPNS_NEW), SO_INT(SO_TIMESTAMPING_NEW), SO_INT(SO_DETACH_REUSEPORT_BPF),
	SO_INT(SO_PREFER_BUSY_POLL), SO_INT(SO_BUSY_POLL_BUDGET), SO_INT(SO_RESERVE_MEM),
	SO_INT(SO_RCVMARK),
	{SOL_RAW, ICMP_FILTER, V_ICMP, V_ICMP},
	{SOL_NETLINK, NETLINK_LIST_MEMBERSHIPS, V_NL_LIST, V_NL_INT},
};

static int value_kind(unsigned level, unsigned name, bool get)
{
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (opts[i].level == level && opts[i].name == name)
			return get ? opts[i].get : opts[i].set;
	return level == SOL_NETLINK ? V_NL_INT : V_DEFAULT;
}

/* fd, level, optname, */
static void put_head(StrBuf *b, const CallView *v, bool get)
{
	unsigned level = (unsigned)v->a[1], name = (unsigned)v->a[2];
	cv_put_fd(b, v, (int32_t)v->a[0]);
	fb_lit(b, ", ");
	dec_enum_unknown(b, levels, level, "SOL_??");
	fb_lit(b, ", ");
	for (size_t i = 0; i < sizeof(level_names) / sizeof(level_names[0]); i++) {
		const Level *l = &level_names[i];
		if (l->level != level)
			continue;
		const FlagName *dir = get ? l->get_names : l->set_names;
		for (const FlagName *f = dir; f && f->name; f++)
			if (f->val == name) {
				fb_puts(b, f->name);
				fb_lit(b, ", ");
				return;
			}
		dec_enum_unknown(b, l->names, name, l->unknown);
		fb_lit(b, ", ");
		return;
	}
	fb_u64(b, name);
	fb_lit(b, ", ");
}

static int32_t get_i32(const uint8_t *d)
{
	int32_t x;
	memcpy(&x, d, 4);
	return x;
}

/* a struct of int fields cut at len bytes, as strace's
 * MAYBE_PRINT_FIELD_LEN: whole fields, then the cut one's bytes in hex */
static void put_int_fields(StrBuf *b, const uint8_t *d, size_t len, const char *const *names,
			   const char *ids)
{
	fb_putc(b, '{');
	for (size_t k = 0; names[k] && 4 * k < len; k++) {
		if (k)
			fb_lit(b, ", ");
		sb_printf(b, "%s=", names[k]);
		if (4 * k + 4 > len)
			dec_hex_str(b, d + 4 * k, len - 4 * k, SIZE_MAX, false);
		else if (ids[k] == 'u' && get_i32(d + 4 * k) == -1)
			fb_lit(b, "-1");
		else if (ids[k] == 'u')
			fb_u64(b, (uint32_t)get_i32(d + 4 * k));
		else
			fb_i64(b, get_i32(d + 4 * k));
	}
	fb_putc(b, '}');
}

/* [N] from an int at the value's address, or the address */
static void put_int_at(StrBuf *b, const CallView *v)
{
	if (!v->a[3] || !v->cap[3] || v->caplen[3] < 4) {
		dec_ptr(b, v->a[3]);
		return;
	}
	fb_putc(b, '[');
	fb_i64(b, get_i32(v->cap[3]));
	fb_putc(b, ']');
}

/* the first len bytes of the value, as a string (strace's printstrn) */
static void put_value_str(StrBuf *b, const CallView *v, int len)
{
	size_t want = (size_t)len < v->strsize ? (size_t)len : v->strsize;
	if (!v->a[3] || len < 0 || !v->cap[3] || v->caplen[3] < want) {
		dec_ptr(b, v->a[3]);
		return;
	}
	dec_str(b, v->cap[3], want, v->strsize, (size_t)len > v->strsize);
}

/* struct icmp_filter: the ICMP types it has, or ~ and those it has not */
static void put_icmp_filter(StrBuf *b, const CallView *v, int len)
{
	uint32_t data = ~0u;
	if (len > 4)
		len = 4;
	if (len <= 0 || !v->a[3] || !v->cap[3] || v->caplen[3] < (size_t)len) {
		dec_ptr(b, v->a[3]);
		return;
	}
	memcpy(&data, v->cap[3], (size_t)len);
	if (__builtin_popcount(data) > 16) {
		data = ~data;
		fb_putc(b, '~');
	}
	fb_putc(b, '[');
	for (int i = 0, n = 0; i < 32; i++)
		if (data >> i & 1) {
			if (n++)
				fb_putc(b, ' ');
			dec_enum_unknown(b, icmp_types, (unsigned)i, "ICMP_???");
		}
	fb_putc(b, ']');
}

/* [SOCK_TXREHASH_DEFAULT], or the number and strace's SOCK_TXREHASH_??? comment */
static void put_txrehash(StrBuf *b, const uint8_t *d)
{
	int32_t x = get_i32(d);
	fb_putc(b, '[');
	for (const FlagName *f = txrehash; f->name; f++)
		if (f->val == (uint64_t)(int64_t)x) {
			fb_puts(b, f->name);
			fb_putc(b, ']');
			return;
		}
	sb_printf(b, "%d /* SOCK_TXREHASH_??? */]", x);
}

/* what getsockopt filled in: rlen bytes of it (ulen the room it had) */
static void put_got(StrBuf *b, const CallView *v, int ulen, int rlen)
{
	static const char *const linger[] = {"l_onoff", "l_linger", NULL};
	static const char *const ucred[] = {"pid", "uid", "gid", NULL};
	uint64_t addr = v->a[3];
	const uint8_t *d = v->cap[3];
	int kind = value_kind((unsigned)v->a[1], (unsigned)v->a[2], true);
	size_t n = (size_t)rlen, have = d ? v->caplen[3] : 0;
	if (ulen <= 0 || rlen <= 0 || !addr || kind == V_ADDR) {
		dec_ptr(b, addr);
		return;
	}
	switch (kind) {
	case V_LINGER: case V_UCRED:
		n = n > (kind == V_LINGER ? 8u : 12u) ? (kind == V_LINGER ? 8u : 12u) : n;
		if (have < n)
			dec_ptr(b, addr);
		else
			put_int_fields(b, d, n, kind == V_LINGER ? linger : ucred,
				       kind == V_LINGER ? "dd" : "duu");
		return;
	case V_INT: case V_ERROR: case V_TXREHASH:
		if (n < 4 && have >= n)
			dec_hex_str(b, d, n, SIZE_MAX, false);
		else if (n < 4 || have < 4)
			dec_ptr(b, addr);
		else if (kind == V_ERROR && dec_errno_name(get_i32(d))) {
			fb_putc(b, '[');
			fb_puts(b, dec_errno_name(get_i32(d)));
			fb_putc(b, ']');
		} else if (kind == V_TXREHASH)
			put_txrehash(b, d);
		else
			put_int_at(b, v);
		return;
	case V_ICMP: put_icmp_filter(b, v, rlen); return;
	case V_NL_INT: put_int_at(b, v); return;
	case V_NL_LIST: {
		size_t cnt = (size_t)(ulen < rlen ? ulen : rlen) / 4;
		if (cnt && have < 4) {
			dec_ptr(b, addr);
			return;
		}
		fb_putc(b, '[');
		for (size_t k = 0; k < cnt; k++) {
			if (k)
				fb_lit(b, ", ");
			if (k == v->strsize || 4 * k + 4 > have) {
				fb_lit(b, "...");
				break;
			}
			fb_u64(b, (uint32_t)get_i32(d + 4 * k));
		}
		fb_putc(b, ']');
		return;
	}
	}
	if (rlen == 4)
		put_int_at(b, v);
	else
		put_value_str(b, v, rlen);
}

static void put_len(StrBuf *b, int32_t ulen, bool out, int32_t rlen)
{
	fb_putc(b, '[');
	if (!out || ulen != rlen)
		fb_i64(b, ulen);
	if (out && ulen != rlen)
		fb_lit(b, " => ");
	if (out)
		fb_i64(b, rlen);
	fb_putc(b, ']');
}

/* getsockopt(fd, level, name, optval, optlen): the room optlen said at the
 * entry (capture 5) and what it says at the exit (capture 4) */
void dec_getsockopt_args(StrBuf *b, const CallView *v)
{
	put_head(b, v, true);
	if (!v->a[4] || !v->cap[5] || v->caplen[5] < 4) {
		dec_ptr(b, v->a[3]);
		fb_lit(b, ", ");
		dec_ptr(b, v->a[4]);
		return;
	}
	int32_t ulen = get_i32(v->cap[5]);
	if (cv_failed(v) || !v->cap[4] || v->caplen[4] < 4) {
		dec_ptr(b, v->a[3]);
		fb_lit(b, ", ");
		put_len(b, ulen, false, 0);
		return;
	}
	int32_t rlen = get_i32(v->cap[4]);
	put_got(b, v, ulen, rlen);
	fb_lit(b, ", ");
	put_len(b, ulen, true, rlen);
}

/* setsockopt(fd, level, name, optval, optlen) */
void dec_setsockopt_args(StrBuf *b, const CallView *v)
{
	int len = (int32_t)v->a[4];
	const uint8_t *d = v->cap[3];
	size_t have = d ? v->caplen[3] : 0;
	int kind = v->a[3] ? value_kind((unsigned)v->a[1], (unsigned)v->a[2], false) : V_DEFAULT;
	put_head(b, v, false);
	switch (kind) {
	case V_LINGER:
		if (len < 8 || have < 8)
			dec_ptr(b, v->a[3]);
		else
			put_int_fields(b, d, 8, (const char *const[]){"l_onoff", "l_linger", NULL}, "dd");
		break;
	case V_INT: case V_NL_INT: case V_TXREHASH:
		if (len < 4 || have < 4)
			dec_ptr(b, v->a[3]);
		else if (kind == V_TXREHASH)
			put_txrehash(b, d);
		else
			put_int_at(b, v);
		break;
	case V_ICMP: put_icmp_filter(b, v, len); break;
	case V_ADDR: dec_ptr(b, v->a[3]); break;
	default:
		if (len == 4)
			put_int_at(b, v);
		else
			put_value_str(b, v, len);
	}
	fb_lit(b, ", ");
	fb_i64(b, len);
}
