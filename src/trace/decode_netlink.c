/* Netlink messages as strace prints them: each nlmsghdr with its type and
 * flags named by the socket's protocol (NETLINK_NETFILTER's subsystem and
 * message tables, NETLINK_ROUTE's types), then its payload: route's by
 * decode_netlink_route.c.  Payloads strace decodes by family otherwise
 * (sock_diag, netfilter, crypto, selinux, errors, the route families not
 * written yet) are not decoded here yet: such a buffer stays a string
 * (dec_netlink returns false). */
#include "decode.h"
#include "decode_tables.h"

#include <string.h>
#include <linux/netlink.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nfnetlink_acct.h>
#include <linux/netfilter/nfnetlink_conntrack.h>
#include <linux/netfilter/nfnetlink_cthelper.h>
#include <linux/netfilter/nfnetlink_cttimeout.h>
#include <linux/netfilter/nfnetlink_log.h>
#include <linux/netfilter/nfnetlink_queue.h>
#include <linux/netfilter/nfnetlink_osf.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nf_tables_compat.h>
#include <linux/netfilter/nfnetlink_hook.h>
#include <linux/netfilter/ipset/ip_set.h>

#include "fmt.h"

static const FlagName nl_flags[] = {N(NLM_F_REQUEST), N(NLM_F_MULTI), N(NLM_F_ACK), N(NLM_F_ECHO),
				    N(NLM_F_DUMP_INTR), N(NLM_F_DUMP_FILTERED), END};
/* the flags of a request's kind (strace's netlink_*_flags) */
enum { K_NONE, K_NEW, K_GET, K_DEL };
static const FlagName *const kind_flags[] = {
	[K_NEW] = (const FlagName[]){N(NLM_F_REPLACE), N(NLM_F_EXCL), N(NLM_F_CREATE), N(NLM_F_APPEND), END},
	[K_GET] = (const FlagName[]){N(NLM_F_DUMP), N(NLM_F_ROOT), N(NLM_F_MATCH), N(NLM_F_ATOMIC), END},
	[K_DEL] = (const FlagName[]){N(NLM_F_NONREC), N(NLM_F_BULK), END},
};
static const FlagName ack_flags[] = {N(NLM_F_CAPPED), N(NLM_F_ACK_TLVS), END};
static const FlagName nl_types[] = {N(NLMSG_NOOP), N(NLMSG_ERROR), N(NLMSG_DONE), N(NLMSG_OVERRUN), END};

/* a netfilter subsystem's message: its name and the kind of its flags */
typedef struct NfMsg {
	int type;
	const char *name;
	int kind;
} NfMsg;
#define M(x, k) {x, #x, k}
#define MEND {0, NULL, 0}
static const NfMsg nf_ct[] = {
	M(IPCTNL_MSG_CT_NEW, K_NEW), M(IPCTNL_MSG_CT_GET, K_GET), M(IPCTNL_MSG_CT_DELETE, K_DEL),
	M(IPCTNL_MSG_CT_GET_CTRZERO, K_GET), M(IPCTNL_MSG_CT_GET_STATS_CPU, K_GET),
	M(IPCTNL_MSG_CT_GET_STATS, K_GET), M(IPCTNL_MSG_CT_GET_DYING, K_GET),
	M(IPCTNL_MSG_CT_GET_UNCONFIRMED, K_GET), MEND};
static const NfMsg nf_exp[] = {
	M(IPCTNL_MSG_EXP_NEW, K_NEW), M(IPCTNL_MSG_EXP_GET, K_GET), M(IPCTNL_MSG_EXP_DELETE, K_DEL),
	M(IPCTNL_MSG_EXP_GET_STATS_CPU, K_GET), MEND};
static const NfMsg nf_queue[] = {
	M(NFQNL_MSG_PACKET, K_NONE), M(NFQNL_MSG_VERDICT, K_NONE), M(NFQNL_MSG_CONFIG, K_NONE),
	M(NFQNL_MSG_VERDICT_BATCH, K_NONE), MEND};
static const NfMsg nf_ulog[] = {M(NFULNL_MSG_PACKET, K_NONE), M(NFULNL_MSG_CONFIG, K_NONE), MEND};
static const NfMsg nf_osf[] = {M(OSF_MSG_ADD, K_NONE), M(OSF_MSG_REMOVE, K_NONE), MEND};
static const NfMsg nf_ipset[] = {
	M(IPSET_CMD_NONE, K_NONE), M(IPSET_CMD_PROTOCOL, K_NONE), M(IPSET_CMD_CREATE, K_NONE),
	M(IPSET_CMD_DESTROY, K_NONE), M(IPSET_CMD_FLUSH, K_NONE), M(IPSET_CMD_RENAME, K_NONE),
	M(IPSET_CMD_SWAP, K_NONE), M(IPSET_CMD_LIST, K_NONE), M(IPSET_CMD_SAVE, K_NONE),
	M(IPSET_CMD_ADD, K_NONE), M(IPSET_CMD_DEL, K_NONE), M(IPSET_CMD_TEST, K_NONE),
	M(IPSET_CMD_HEADER, K_NONE), M(IPSET_CMD_TYPE, K_NONE), M(IPSET_CMD_RESTORE, K_NONE),
	M(IPSET_CMD_HELP, K_NONE), M(IPSET_CMD_VERSION, K_NONE), M(IPSET_CMD_QUIT, K_NONE),
	M(IPSET_CMD_COMMIT, K_NONE), MEND};
static const NfMsg nf_acct[] = {
	M(NFNL_MSG_ACCT_NEW, K_NEW), M(NFNL_MSG_ACCT_GET, K_GET), M(NFNL_MSG_ACCT_GET_CTRZERO, K_GET),
	M(NFNL_MSG_ACCT_DEL, K_DEL), M(NFNL_MSG_ACCT_OVERQUOTA, K_NONE), MEND};
static const NfMsg nf_timeout[] = {
	M(IPCTNL_MSG_TIMEOUT_NEW, K_NEW), M(IPCTNL_MSG_TIMEOUT_GET, K_GET),
	M(IPCTNL_MSG_TIMEOUT_DELETE, K_DEL), M(IPCTNL_MSG_TIMEOUT_DEFAULT_SET, K_NONE),
	M(IPCTNL_MSG_TIMEOUT_DEFAULT_GET, K_NONE), MEND};
static const NfMsg nf_cthelper[] = {
	M(NFNL_MSG_CTHELPER_NEW, K_NEW), M(NFNL_MSG_CTHELPER_GET, K_GET),
	M(NFNL_MSG_CTHELPER_DEL, K_DEL), MEND};
static const NfMsg nf_tables[] = {
	M(NFT_MSG_NEWTABLE, K_NEW), M(NFT_MSG_GETTABLE, K_GET), M(NFT_MSG_DELTABLE, K_DEL),
	M(NFT_MSG_NEWCHAIN, K_NEW), M(NFT_MSG_GETCHAIN, K_GET), M(NFT_MSG_DELCHAIN, K_DEL),
	M(NFT_MSG_NEWRULE, K_NEW), M(NFT_MSG_GETRULE, K_GET), M(NFT_MSG_DELRULE, K_DEL),
	M(NFT_MSG_NEWSET, K_NEW), M(NFT_MSG_GETSET, K_GET), M(NFT_MSG_DELSET, K_DEL),
	M(NFT_MSG_NEWSETELEM, K_NEW), M(NFT_MSG_GETSETELEM, K_GET), M(NFT_MSG_DELSETELEM, K_DEL),
	M(NFT_MSG_NEWGEN, K_NEW), M(NFT_MSG_GETGEN, K_GET), M(NFT_MSG_TRACE, K_NONE),
	M(NFT_MSG_NEWOBJ, K_NEW), M(NFT_MSG_GETOBJ, K_GET), M(NFT_MSG_DELOBJ, K_DEL),
	M(NFT_MSG_GETOBJ_RESET, K_GET), M(NFT_MSG_NEWFLOWTABLE, K_NEW),
	M(NFT_MSG_GETFLOWTABLE, K_GET), M(NFT_MSG_DELFLOWTABLE, K_DEL), MEND};
static const NfMsg nf_compat[] = {M(NFNL_MSG_COMPAT_GET, K_GET), MEND};
static const NfMsg nf_hook[] = {M(NFNL_MSG_HOOK_GET, K_GET), MEND};

/* strace 6.1's subsystems: name, messages, the name of an unknown one */
static const struct {
	const char *name;
	const NfMsg *msgs;
	const char *unknown;
} nf_subsys[] = {
	[NFNL_SUBSYS_NONE] = {"NFNL_SUBSYS_NONE", NULL, NULL},
	[NFNL_SUBSYS_CTNETLINK] = {"NFNL_SUBSYS_CTNETLINK", nf_ct, "IPCTNL_MSG_CT_???"},
	[NFNL_SUBSYS_CTNETLINK_EXP] = {"NFNL_SUBSYS_CTNETLINK_EXP", nf_exp, "IPCTNL_MSG_EXP_???"},
	[NFNL_SUBSYS_QUEUE] = {"NFNL_SUBSYS_QUEUE", nf_queue, "NFQNL_MSG_???"},
	[NFNL_SUBSYS_ULOG] = {"NFNL_SUBSYS_ULOG", nf_ulog, "NFULNL_MSG_???"},
	[NFNL_SUBSYS_OSF] = {"NFNL_SUBSYS_OSF", nf_osf, "OSF_MSG_???"},
	[NFNL_SUBSYS_IPSET] = {"NFNL_SUBSYS_IPSET", nf_ipset, "IPSET_CMD_???"},
	[NFNL_SUBSYS_ACCT] = {"NFNL_SUBSYS_ACCT", nf_acct, "NFNL_MSG_ACCT_???"},
	[NFNL_SUBSYS_CTNETLINK_TIMEOUT] = {"NFNL_SUBSYS_CTNETLINK_TIMEOUT", nf_timeout, "IPCTNL_MSG_TIMEOUT_???"},
	[NFNL_SUBSYS_CTHELPER] = {"NFNL_SUBSYS_CTHELPER", nf_cthelper, "NFNL_MSG_CTHELPER_???"},
	[NFNL_SUBSYS_NFTABLES] = {"NFNL_SUBSYS_NFTABLES", nf_tables, "NFT_MSG_???"},
	[NFNL_SUBSYS_NFT_COMPAT] = {"NFNL_SUBSYS_NFT_COMPAT", nf_compat, "NFNL_MSG_COMPAT_???"},
	[NFNL_SUBSYS_HOOK] = {"NFNL_SUBSYS_HOOK", nf_hook, "NFT_MSG_HOOK_???"},
};
#define NF_NSUBSYS (int)(sizeof(nf_subsys) / sizeof(nf_subsys[0]))

static const NfMsg *nf_msg(int type)
{
	int subsys = type >> 8 & 0xff, msg = type & 0xff;
	if (subsys >= NF_NSUBSYS || !nf_subsys[subsys].msgs)
		return NULL;
	for (const NfMsg *m = nf_subsys[subsys].msgs; m->name; m++)
		if (m->type == msg)
			return m;
	return NULL;
}

/* NFNL_SUBSYS_ACCT<<8|NFNL_MSG_ACCT_NEW */
static void put_nf_type(StrBuf *b, int type)
{
	if (type == NFNL_MSG_BATCH_BEGIN || type == NFNL_MSG_BATCH_END) {
		sb_puts(b, type == NFNL_MSG_BATCH_BEGIN ? "NFNL_MSG_BATCH_BEGIN" : "NFNL_MSG_BATCH_END");
		return;
	}
	int subsys = type >> 8 & 0xff, msg = type & 0xff;
	if (subsys < NF_NSUBSYS && nf_subsys[subsys].name)
		sb_puts(b, nf_subsys[subsys].name);
	else
		sb_printf(b, "%#x /* NFNL_SUBSYS_??? */", subsys);
	sb_puts(b, "<<8|");
	const NfMsg *m = nf_msg(type);
	if (m)
		sb_puts(b, m->name);
	else if (subsys < NF_NSUBSYS && nf_subsys[subsys].unknown)
		sb_printf(b, "%#x /* %s */", msg, nf_subsys[subsys].unknown);
	else
		fb_hex(b, (uint64_t)msg);
}

/* the flags' second table, as strace picks it (NULL: only the common ones) */
static const FlagName *kind_table(int proto, int type)
{
	if (type < NLMSG_MIN_TYPE)
		return type == NLMSG_ERROR ? ack_flags : NULL;
	if (proto == NETLINK_NETFILTER) {
		const NfMsg *m = nf_msg(type);
		return m && m->kind ? kind_flags[m->kind] : NULL;
	}
	if (proto == NETLINK_SOCK_DIAG)
		return kind_flags[K_GET];
	if (proto == NETLINK_ROUTE) {
		if (type == 49) /* RTM_DELACTION uses NLM_F_ROOT's */
			return kind_flags[K_GET];
		return (type & 3) == 3 ? NULL : kind_flags[(type & 3) == 0 ? K_NEW : (type & 3) == 1 ? K_DEL : K_GET];
	}
	return NULL;
}

/* strace's printflags_ex with two tables: the common flags, then the kind's */
static void put_nl_flags(StrBuf *b, int proto, int type, uint16_t v)
{
	const FlagName *t2 = kind_table(proto, type);
	uint64_t rest = v;
	bool any = false;
	for (int pass = 0; pass < 2; pass++)
		for (const FlagName *f = pass ? t2 : nl_flags; f && f->name; f++)
			if ((rest & f->val) == f->val) {
				sb_puts(b, any ? "|" : "");
				sb_puts(b, f->name);
				rest &= ~f->val;
				any = true;
			}
	if (!any && rest)
		sb_printf(b, "%#llx /* NLM_F_??? */", (unsigned long long)rest);
	else if (rest)
		sb_printf(b, "|%#llx", (unsigned long long)rest);
	else if (!any)
		sb_putc(b, '0');
}

/* families whose payloads strace decodes with its own decoders */
static bool payload_decoded(int proto, int type)
{
	if (type == NLMSG_ERROR)
		return true;
	if (type < NLMSG_MIN_TYPE && type != NLMSG_DONE)
		return false;
	if (proto == NETLINK_ROUTE && type != NLMSG_DONE)
		return false; /* decode_netlink_route.c, checked as it prints */
	return proto == NETLINK_SOCK_DIAG || proto == NETLINK_NETFILTER ||
	       proto == NETLINK_CRYPTO || proto == NETLINK_SELINUX || type == NLMSG_DONE;
}

static void put_nlmsghdr(StrBuf *b, int proto, const struct nlmsghdr *h)
{
	sb_printf(b, "{nlmsg_len=%u, nlmsg_type=", h->nlmsg_len);
	if (h->nlmsg_type < NLMSG_MIN_TYPE)
		dec_enum_unknown(b, nl_types, h->nlmsg_type, "NLMSG_???");
	else if (proto == NETLINK_NETFILTER)
		put_nf_type(b, h->nlmsg_type);
	else if (proto == NETLINK_ROUTE)
		dec_rtnl_type(b, h->nlmsg_type);
	else
		sb_printf(b, "%#x", h->nlmsg_type);
	sb_puts(b, ", nlmsg_flags=");
	put_nl_flags(b, proto, h->nlmsg_type, h->nlmsg_flags);
	sb_printf(b, ", nlmsg_seq=%u, nlmsg_pid=%u}", h->nlmsg_seq, h->nlmsg_pid);
}

/* a message's payload: route's by its family, the others' in hex */
static bool put_payload(StrBuf *b, int proto, const struct nlmsghdr *h, const uint8_t *d, size_t n,
			size_t strsize)
{
	if (proto == NETLINK_ROUTE && h->nlmsg_type >= NLMSG_MIN_TYPE)
		return dec_rtnl_payload(b, h->nlmsg_type, d, n, strsize);
	dec_hex_str(b, d, n, strsize, false);
	return true;
}

bool dec_netlink(StrBuf *b, int proto, const uint8_t *d, size_t caplen, uint64_t len, size_t strsize)
{
	/* what can be shown as strace does: the family's type names are
	 * known for netfilter and route; the whole buffer captured */
	if (proto != NETLINK_NETFILTER && proto != NETLINK_GENERIC && proto != NETLINK_ROUTE)
		return false;
	if (len < NLMSG_HDRLEN || caplen < len) {
		if (caplen < len && len >= NLMSG_HDRLEN)
			return false;
		dec_hex_str(b, d, (size_t)len, strsize, false);
		return true;
	}
	/* check first: nothing is printed unless all of it can be */
	for (uint64_t off = 0, rem = len; rem >= NLMSG_HDRLEN;) {
		struct nlmsghdr h;
		memcpy(&h, d + off, sizeof(h));
		if (proto == NETLINK_GENERIC && h.nlmsg_type >= NLMSG_MIN_TYPE && h.nlmsg_type != 0x10)
			return false; /* strace names genl families by asking the kernel */
		uint64_t hl = h.nlmsg_len < rem ? h.nlmsg_len : rem;
		if (hl > NLMSG_HDRLEN && payload_decoded(proto, h.nlmsg_type))
			return false;
		uint64_t step = NLMSG_ALIGN(h.nlmsg_len);
		if (h.nlmsg_len < NLMSG_HDRLEN || rem <= step)
			break;
		off += step, rem -= step;
	}
	bool array = false;
	size_t start = b->len;
	uint64_t off = 0, rem = len;
	for (int elt = 0;; elt++) {
		if (rem < NLMSG_HDRLEN) {
			dec_hex_str(b, d + off, (size_t)rem, strsize, false);
			break;
		}
		if (elt == (int)strsize) {
			sb_puts(b, "...");
			break;
		}
		struct nlmsghdr h;
		memcpy(&h, d + off, sizeof(h));
		uint64_t step = NLMSG_ALIGN(h.nlmsg_len), next = 0;
		if (h.nlmsg_len >= NLMSG_HDRLEN)
			next = rem >= step ? rem - step : 0;
		if (!array && next) {
			sb_putc(b, '[');
			array = true;
		}
		uint64_t hl = h.nlmsg_len < rem ? h.nlmsg_len : rem;
		if (hl > NLMSG_HDRLEN)
			sb_putc(b, '[');
		if (proto == NETLINK_GENERIC && h.nlmsg_type == 0x10)
			sb_printf(b, "{nlmsg_len=%u, nlmsg_type=nlctrl, nlmsg_flags=", h.nlmsg_len),
				put_nl_flags(b, proto, h.nlmsg_type, h.nlmsg_flags),
				sb_printf(b, ", nlmsg_seq=%u, nlmsg_pid=%u}", h.nlmsg_seq, h.nlmsg_pid);
		else
			put_nlmsghdr(b, proto, &h);
		if (hl > NLMSG_HDRLEN) {
			sb_puts(b, ", ");
			if (!put_payload(b, proto, &h, d + off + NLMSG_HDRLEN, (size_t)(hl - NLMSG_HDRLEN), strsize)) {
				b->len = start; /* nothing unless all of it */
				return false;
			}
			sb_putc(b, ']');
		}
		if (!next)
			break;
		sb_puts(b, ", ");
		off += step, rem = next;
	}
	if (array)
		sb_putc(b, ']');
	return true;
}
