/* NETLINK_ROUTE messages as strace 6.1 prints them: the message type's
 * name, then for the families written here the family's header struct
 * ({dcb_family=AF_UNIX, cmd=DCB_CMD_UNDEFINED}) and its attributes
 * ([{nla_len=8, nla_type=NETCONFA_IFINDEX}, if_nametoindex("lo")]).  A
 * family is a row of msgs[]: its types, its header's fields, its attribute
 * names and the kind of each attribute's value.  An attribute strace
 * decodes in a way not written here (nested tables) makes the message
 * undecodable (dec_rtnl_payload returns false) rather than wrong. */
#include "decode.h"
#include "decode_tables.h"

#include <arpa/inet.h>
#include <net/if.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/dcbnl.h>
#include <linux/if_addrlabel.h>
#include <linux/if_bridge.h>
#include <linux/netconf.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "fmt.h"

static const FlagName rtm_types[] = {
	N(RTM_NEWLINK), N(RTM_DELLINK), N(RTM_GETLINK), N(RTM_SETLINK), N(RTM_NEWADDR), N(RTM_DELADDR),
	N(RTM_GETADDR), N(RTM_NEWROUTE), N(RTM_DELROUTE), N(RTM_GETROUTE), N(RTM_NEWNEIGH),
	N(RTM_DELNEIGH), N(RTM_GETNEIGH), N(RTM_NEWRULE), N(RTM_DELRULE), N(RTM_GETRULE),
	N(RTM_NEWQDISC), N(RTM_DELQDISC), N(RTM_GETQDISC), N(RTM_NEWTCLASS), N(RTM_DELTCLASS),
	N(RTM_GETTCLASS), N(RTM_NEWTFILTER), N(RTM_DELTFILTER), N(RTM_GETTFILTER), N(RTM_NEWACTION),
	N(RTM_DELACTION), N(RTM_GETACTION), N(RTM_NEWPREFIX), N(RTM_GETMULTICAST), N(RTM_GETANYCAST),
	N(RTM_NEWNEIGHTBL), N(RTM_GETNEIGHTBL), N(RTM_SETNEIGHTBL), N(RTM_NEWNDUSEROPT),
	N(RTM_NEWADDRLABEL), N(RTM_DELADDRLABEL), N(RTM_GETADDRLABEL), N(RTM_GETDCB), N(RTM_SETDCB),
	N(RTM_NEWNETCONF), N(RTM_DELNETCONF), N(RTM_GETNETCONF), N(RTM_NEWMDB), N(RTM_DELMDB),
	N(RTM_GETMDB), N(RTM_NEWNSID), N(RTM_DELNSID), N(RTM_GETNSID), N(RTM_NEWSTATS), N(RTM_GETSTATS),
	N(RTM_NEWCACHEREPORT), N(RTM_NEWCHAIN), N(RTM_DELCHAIN), N(RTM_GETCHAIN), N(RTM_NEWNEXTHOP),
	N(RTM_DELNEXTHOP), N(RTM_GETNEXTHOP), N(RTM_NEWLINKPROP), N(RTM_DELLINKPROP),
	N(RTM_GETLINKPROP), N(RTM_NEWVLAN), N(RTM_DELVLAN), N(RTM_GETVLAN), N(RTM_NEWNEXTHOPBUCKET),
	N(RTM_DELNEXTHOPBUCKET), N(RTM_GETNEXTHOPBUCKET), END};
static const FlagName dcb_cmds[] = {
	N(DCB_CMD_UNDEFINED), N(DCB_CMD_GSTATE), N(DCB_CMD_SSTATE), N(DCB_CMD_PGTX_GCFG),
	N(DCB_CMD_PGTX_SCFG), N(DCB_CMD_PGRX_GCFG), N(DCB_CMD_PGRX_SCFG), N(DCB_CMD_PFC_GCFG),
	N(DCB_CMD_PFC_SCFG), N(DCB_CMD_SET_ALL), N(DCB_CMD_GPERM_HWADDR), N(DCB_CMD_GCAP),
	N(DCB_CMD_GNUMTCS), N(DCB_CMD_SNUMTCS), N(DCB_CMD_PFC_GSTATE), N(DCB_CMD_PFC_SSTATE),
	N(DCB_CMD_BCN_GCFG), N(DCB_CMD_BCN_SCFG), N(DCB_CMD_GAPP), N(DCB_CMD_SAPP), N(DCB_CMD_IEEE_SET),
	N(DCB_CMD_IEEE_GET), N(DCB_CMD_GDCBX), N(DCB_CMD_SDCBX), N(DCB_CMD_GFEATCFG),
	N(DCB_CMD_SFEATCFG), N(DCB_CMD_CEE_GET), N(DCB_CMD_IEEE_DEL), END};
static const FlagName dcb_attrs[] = {
	N(DCB_ATTR_UNDEFINED), N(DCB_ATTR_IFNAME), N(DCB_ATTR_STATE), N(DCB_ATTR_PFC_STATE),
	N(DCB_ATTR_PFC_CFG), N(DCB_ATTR_NUM_TC), N(DCB_ATTR_PG_CFG), N(DCB_ATTR_SET_ALL),
	N(DCB_ATTR_PERM_HWADDR), N(DCB_ATTR_CAP), N(DCB_ATTR_NUMTCS), N(DCB_ATTR_BCN), N(DCB_ATTR_APP),
	N(DCB_ATTR_IEEE), N(DCB_ATTR_DCBX), N(DCB_ATTR_FEATCFG), N(DCB_ATTR_CEE), END};
static const FlagName netconf_attrs[] = {
	N(NETCONFA_UNSPEC), N(NETCONFA_IFINDEX), N(NETCONFA_FORWARDING), N(NETCONFA_RP_FILTER),
	N(NETCONFA_MC_FORWARDING), N(NETCONFA_PROXY_NEIGH), N(NETCONFA_IGNORE_ROUTES_WITH_LINKDOWN),
	N(NETCONFA_INPUT), N(NETCONFA_BC_FORWARDING), END};
static const FlagName mdb_attrs[] = {
	N(MDBA_UNSPEC), N(MDBA_MDB), N(MDBA_ROUTER), END};
static const FlagName ifal_attrs[] = {
	N(IFAL_ADDRESS), N(IFAL_LABEL), END};

/* a header field's kind */
enum { F_FAMILY, F_XVAL, F_U8, F_U32, F_IFINDEX };
typedef struct RtField {
	const char *name;
	uint8_t off, kind;
	const FlagName *names; /* F_XVAL */
	const char *unknown;
} RtField;

/* an attribute value's kind (strace's nla decoders) */
enum {
	A_HEX,     /* the bytes in hex (no decoder) */
	A_S32,     /* decode_nla_s32 */
	A_U32,     /* decode_nla_u32 */
	A_IFINDEX, /* decode_nla_ifindex */
	A_INADDR,  /* an address of the header's family (decode_inet_addr) */
	A_NOT_YET, /* strace decodes it in a way not written here */
};

typedef struct RtMsg {
	uint16_t types[3];
	uint8_t size;           /* the header's */
	RtField fields[6];      /* the first is the family */
	const FlagName *attrs;
	const char *attr_unknown;
	uint8_t kinds[16];      /* by attribute type (A_HEX beyond) */
} RtMsg;

static const RtMsg msgs[] = {
	{{RTM_GETDCB, RTM_SETDCB}, sizeof(struct dcbmsg),
	 {{"dcb_family", 0, F_FAMILY}, {"cmd", 1, F_XVAL, dcb_cmds, "DCB_CMD_???"}},
	 dcb_attrs, "DCB_ATTR_???", {0}},
	{{RTM_NEWNETCONF, RTM_DELNETCONF, RTM_GETNETCONF}, sizeof(struct netconfmsg),
	 {{"ncm_family", 0, F_FAMILY}},
	 netconf_attrs, "NETCONFA_???",
	 {[NETCONFA_IFINDEX] = A_IFINDEX, [NETCONFA_FORWARDING] = A_S32, [NETCONFA_RP_FILTER] = A_S32,
	  [NETCONFA_MC_FORWARDING] = A_S32, [NETCONFA_PROXY_NEIGH] = A_S32,
	  [NETCONFA_IGNORE_ROUTES_WITH_LINKDOWN] = A_S32, [NETCONFA_INPUT] = A_S32,
	  [NETCONFA_BC_FORWARDING] = A_S32}},
	{{RTM_NEWMDB, RTM_DELMDB, RTM_GETMDB}, sizeof(struct br_port_msg),
	 {{"family", 0, F_FAMILY}, {"ifindex", 4, F_IFINDEX}},
	 mdb_attrs, "MDBA_???", {[MDBA_MDB] = A_NOT_YET, [MDBA_ROUTER] = A_NOT_YET}},
	{{RTM_NEWADDRLABEL, RTM_DELADDRLABEL, RTM_GETADDRLABEL}, sizeof(struct ifaddrlblmsg),
	 {{"ifal_family", 0, F_FAMILY}, {"ifal_prefixlen", 2, F_U8}, {"ifal_flags", 3, F_U8},
	  {"ifal_index", 4, F_IFINDEX}, {"ifal_seq", 8, F_U32}},
	 ifal_attrs, "IFAL_???", {[IFAL_ADDRESS] = A_INADDR, [IFAL_LABEL] = A_U32}},
};

void dec_rtnl_type(StrBuf *b, int type)
{
	dec_enum_unknown(b, rtm_types, (uint64_t)type, "RTM_???");
}

static const RtMsg *rt_msg(int type)
{
	for (size_t i = 0; i < sizeof(msgs) / sizeof(msgs[0]); i++)
		for (int k = 0; k < 3; k++)
			if (msgs[i].types[k] == type)
				return &msgs[i];
	return NULL;
}

static uint32_t get_u32(const uint8_t *d)
{
	uint32_t x;
	memcpy(&x, d, 4);
	return x;
}

/* strace's print_ifindex: the interface's name when this host has it */
static void put_ifindex(StrBuf *b, uint32_t i)
{
	char name[IF_NAMESIZE];
	if (if_indextoname(i, name))
		sb_printf(b, "if_nametoindex(\"%s\")", name);
	else
		fb_u64(b, i);
}

/* {family=AF_UNIX, ifindex=...}; a header cut short: the family, "..." */
static void put_header(StrBuf *b, const RtMsg *m, const uint8_t *d, size_t len)
{
	fb_putc(b, '{');
	for (int i = 0; i < 6 && m->fields[i].name; i++) {
		const RtField *f = &m->fields[i];
		if (i) {
			fb_lit(b, ", ");
			if (len < m->size) {
				fb_lit(b, "...");
				break;
			}
		}
		sb_printf(b, "%s=", f->name);
		switch (f->kind) {
		case F_FAMILY: dec_sock_family(b, d[0]); break;
		case F_XVAL: dec_enum_unknown(b, f->names, d[f->off], f->unknown); break;
		case F_U8: fb_u64(b, d[f->off]); break;
		case F_U32: fb_u64(b, get_u32(d + f->off)); break;
		case F_IFINDEX: put_ifindex(b, get_u32(d + f->off)); break;
		}
	}
	fb_putc(b, '}');
}

/* inet_addr("1.2.3.4"), inet_pton(AF_INET6, "::1"), else the bytes */
static void put_inaddr(StrBuf *b, int family, const uint8_t *d, size_t n, size_t strsize)
{
	char s[INET6_ADDRSTRLEN];
	size_t need = family == AF_INET ? 4 : family == AF_INET6 ? 16 : 0;
	if (!need || n < need || !inet_ntop(family, d, s, sizeof(s)))
		dec_hex_str(b, d, n, strsize, false);
	else if (family == AF_INET)
		sb_printf(b, "inet_addr(\"%s\")", s);
	else
		sb_printf(b, "inet_pton(AF_INET6, \"%s\")", s);
}

/* an attribute's value: false when strace's decoder for it is not here */
static bool put_nlattr_value(StrBuf *b, int kind, int family, const uint8_t *d, size_t n, size_t strsize)
{
	if (kind == A_NOT_YET)
		return false;
	if (kind == A_INADDR)
		put_inaddr(b, family, d, n, strsize);
	else if (kind == A_HEX || n < 4)
		dec_hex_str(b, d, n, strsize, false);
	else if (kind == A_S32)
		fb_i64(b, (int32_t)get_u32(d));
	else if (kind == A_U32)
		fb_u64(b, get_u32(d));
	else
		put_ifindex(b, get_u32(d));
	return true;
}

/* {nla_len=8, nla_type=NLA_F_NESTED|NAME} */
static void put_nlattr_hdr(StrBuf *b, const RtMsg *m, const struct nlattr *a)
{
	sb_printf(b, "{nla_len=%u, nla_type=", a->nla_len);
	if (a->nla_type & NLA_F_NESTED)
		fb_lit(b, "NLA_F_NESTED|");
	if (a->nla_type & NLA_F_NET_BYTEORDER)
		fb_lit(b, "NLA_F_NET_BYTEORDER|");
	dec_enum_unknown(b, m->attrs, a->nla_type & NLA_TYPE_MASK, m->attr_unknown);
	fb_putc(b, '}');
}

/* strace's decode_nlattr: [{nla_len, nla_type}, value] each, an array of
 * them when more follow; what is too short for one, in hex */
static bool put_attrs(StrBuf *b, const RtMsg *m, int family, const uint8_t *d, size_t len,
		      size_t strsize)
{
	bool array = false;
	for (size_t elt = 0;; elt++) {
		if (len < NLA_HDRLEN) {
			dec_hex_str(b, d, len, strsize, false);
			break;
		}
		if (elt == strsize) {
			fb_lit(b, "...");
			break;
		}
		struct nlattr a;
		memcpy(&a, d, sizeof(a));
		size_t alen = a.nla_len < len ? a.nla_len : len, step = NLA_ALIGN(a.nla_len), next = 0;
		if (a.nla_len >= NLA_HDRLEN)
			next = len >= step ? len - step : 0;
		if (!array && next) {
			fb_putc(b, '[');
			array = true;
		}
		if (alen > NLA_HDRLEN)
			fb_putc(b, '[');
		put_nlattr_hdr(b, m, &a);
		if (alen > NLA_HDRLEN) {
			unsigned t = a.nla_type & NLA_TYPE_MASK;
			fb_lit(b, ", ");
			if (!put_nlattr_value(b, t < 16 ? m->kinds[t] : A_HEX, family, d + NLA_HDRLEN,
				       alen - NLA_HDRLEN, strsize))
				return false;
			fb_putc(b, ']');
		}
		if (!next)
			break;
		fb_lit(b, ", ");
		d += step, len = next;
	}
	if (array)
		fb_putc(b, ']');
	return true;
}

bool dec_rtnl_payload(StrBuf *b, int type, const uint8_t *d, size_t len, size_t strsize)
{
	const RtMsg *m = rt_msg(type);
	if (!m || !len)
		return false;
	put_header(b, m, d, len);
	size_t off = NLMSG_ALIGN(m->size);
	if (len < m->size || len <= off)
		return true;
	fb_lit(b, ", ");
	return put_attrs(b, m, d[0], d + off, len - off, strsize);
}
