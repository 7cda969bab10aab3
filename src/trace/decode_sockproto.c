/* socket(2)'s protocol as strace 6.1 names it: by the family's table
 * (strace's inet_protocols, netlink_protocols, ethernet_protocols); a
 * protocol no row names is hex with the family's unknown-name comment, a
 * family without a table its number.  A new family is a row of fams[]. */
#include "decode.h"
#include "decode_tables.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <linux/if_ether.h>
#include <linux/netlink.h>

#include "fmt.h"

/* glibc's netinet/in.h has no IPPROTO_L2TP (linux/in.h clashes with it) */
static const FlagName inet_protos[] = {
	N(IPPROTO_IP), N(IPPROTO_ICMP), N(IPPROTO_IGMP), N(IPPROTO_IPIP), N(IPPROTO_TCP),
	N(IPPROTO_EGP), N(IPPROTO_PUP), N(IPPROTO_UDP), N(IPPROTO_IDP), N(IPPROTO_TP), N(IPPROTO_DCCP),
	N(IPPROTO_IPV6), N(IPPROTO_ROUTING), N(IPPROTO_FRAGMENT), N(IPPROTO_RSVP), N(IPPROTO_GRE),
	N(IPPROTO_ESP), N(IPPROTO_AH), N(IPPROTO_ICMPV6), N(IPPROTO_NONE), N(IPPROTO_DSTOPTS),
	N(IPPROTO_MTP), N(IPPROTO_BEETPH), N(IPPROTO_ENCAP), N(IPPROTO_PIM), N(IPPROTO_COMP),
	{115, "IPPROTO_L2TP"}, N(IPPROTO_SCTP), N(IPPROTO_MH), N(IPPROTO_UDPLITE), N(IPPROTO_MPLS),
	N(IPPROTO_ETHERNET), N(IPPROTO_RAW), N(IPPROTO_MPTCP), END};
static const FlagName netlink_protos[] = {
	N(NETLINK_ROUTE), N(NETLINK_UNUSED), N(NETLINK_USERSOCK), N(NETLINK_FIREWALL),
	N(NETLINK_SOCK_DIAG), N(NETLINK_NFLOG), N(NETLINK_XFRM), N(NETLINK_SELINUX), N(NETLINK_ISCSI),
	N(NETLINK_AUDIT), N(NETLINK_FIB_LOOKUP), N(NETLINK_CONNECTOR), N(NETLINK_NETFILTER),
	N(NETLINK_IP6_FW), N(NETLINK_DNRTMSG), N(NETLINK_KOBJECT_UEVENT), N(NETLINK_GENERIC),
	N(NETLINK_SCSITRANSPORT), N(NETLINK_ECRYPTFS), N(NETLINK_RDMA), N(NETLINK_CRYPTO),
	N(NETLINK_SMC), END};
static const FlagName eth_protos[] = {
	N(ETH_P_802_3), N(ETH_P_AX25), N(ETH_P_ALL), N(ETH_P_802_2), N(ETH_P_SNAP), N(ETH_P_DDCMP),
	N(ETH_P_WAN_PPP), N(ETH_P_PPP_MP), N(ETH_P_LOCALTALK), N(ETH_P_CAN), N(ETH_P_CANFD),
	N(ETH_P_CANXL), N(ETH_P_PPPTALK), N(ETH_P_TR_802_2), N(ETH_P_MOBITEX), N(ETH_P_CONTROL),
	N(ETH_P_IRDA), N(ETH_P_ECONET), N(ETH_P_HDLC), N(ETH_P_ARCNET), N(ETH_P_DSA), N(ETH_P_TRAILER),
	N(ETH_P_LOOP), N(ETH_P_PHONET), N(ETH_P_IEEE802154), N(ETH_P_CAIF), N(ETH_P_XDSA), N(ETH_P_MAP),
	N(ETH_P_MCTP), N(ETH_P_PUP), N(ETH_P_PUPAT), N(ETH_P_802_3_MIN), N(ETH_P_IP), N(ETH_P_X25),
	N(ETH_P_ARP), N(ETH_P_BPQ), N(ETH_P_IEEEPUP), N(ETH_P_IEEEPUPAT), N(ETH_P_ERSPAN2),
	N(ETH_P_TSN), N(ETH_P_BATMAN), N(ETH_P_DEC), N(ETH_P_DNA_DL), N(ETH_P_DNA_RC), N(ETH_P_DNA_RT),
	N(ETH_P_LAT), N(ETH_P_DIAG), N(ETH_P_CUST), N(ETH_P_SCA), N(ETH_P_TEB), N(ETH_P_RARP),
	N(ETH_P_ATALK), N(ETH_P_AARP), N(ETH_P_8021Q), N(ETH_P_IPX), N(ETH_P_IPV6), N(ETH_P_PAUSE),
	N(ETH_P_SLOW), N(ETH_P_WCCP), N(ETH_P_MPLS_UC), N(ETH_P_MPLS_MC), N(ETH_P_ATMMPOA),
	N(ETH_P_PPP_DISC), N(ETH_P_PPP_SES), N(ETH_P_LINK_CTL), N(ETH_P_ATMFATE), N(ETH_P_PAE),
	N(ETH_P_REALTEK), N(ETH_P_AOE), N(ETH_P_8021AD), N(ETH_P_802_EX1), N(ETH_P_ERSPAN),
	N(ETH_P_PREAUTH), N(ETH_P_TIPC), N(ETH_P_LLDP), N(ETH_P_MRP), N(ETH_P_MACSEC), N(ETH_P_8021AH),
	N(ETH_P_MVRP), N(ETH_P_1588), N(ETH_P_NCSI), N(ETH_P_PRP), N(ETH_P_CFM), N(ETH_P_FCOE),
	N(ETH_P_TDLS), N(ETH_P_FIP), N(ETH_P_IBOE), N(ETH_P_80221), N(ETH_P_HSR), N(ETH_P_NSH),
	N(ETH_P_LOOPBACK), N(ETH_P_QINQ1), N(ETH_P_QINQ2), N(ETH_P_QINQ3), N(ETH_P_EDSA),
	N(ETH_P_DSA_8021Q), N(ETH_P_DSA_A5PSW), N(ETH_P_IFE), N(ETH_P_AF_IUCV), END};

static const struct {
	int family;
	const FlagName *names;
	const char *unknown;
} fams[] = {
	{AF_INET, inet_protos, "IPPROTO_???"},
	{AF_INET6, inet_protos, "IPPROTO_???"},
	{AF_NETLINK, netlink_protos, "NETLINK_???"},
};

void dec_sock_proto(StrBuf *b, uint64_t family, uint64_t proto)
{
	uint32_t p = (uint32_t)proto;
	if (family == AF_PACKET) {
		/* the protocol in network order, as the program wrote it */
		sb_puts(b, "htons(");
		dec_enum_unknown(b, eth_protos, ntohs((uint16_t)p), "ETH_P_???");
		sb_putc(b, ')');
		return;
	}
	for (size_t i = 0; i < sizeof(fams) / sizeof(fams[0]); i++)
		if ((uint64_t)fams[i].family == family) {
			dec_enum_unknown(b, fams[i].names, p, fams[i].unknown);
			return;
		}
	fb_u64(b, p);
}
