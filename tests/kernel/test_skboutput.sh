# skboutput() in a kfunc probe on loopback transmits while ping runs: three
# echo requests and three replies (ICMP over IPv4).  The pcap files are
# read back byte for byte: the file header (libpcap's, LINKTYPE_RAW), one
# record per packet, lengths exact for the offset and length given, the
# IP/ICMP bytes where they belong, timestamps within the run; a length past
# the packet makes the helper fail (-EFAULT) and writes nothing.
# timeout: 200
fail() { echo "$*"; exit 1; }
u32() { od -An -tu4 -j "$2" -N 4 "$1" | tr -d ' '; }
u8() { od -An -tu1 -j "$2" -N 1 "$1" | tr -d ' '; }
size() { wc -c < "$1" | tr -d ' '; }
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
f=loopback_xmit
[ -n "$(sonde -l "kfunc:$f")" ] || f=__dev_queue_xmit
cd /tmp && rm -f ip.pcap head.pcap none.pcap
cat > skb.bt <<BT
kfunc:$f /args->skb->dev->ifindex == 1 && args->skb->protocol == 0x0008/ {
	\$r = skboutput("/tmp/ip.pcap", args->skb, args->skb->len, 14);
	\$h = skboutput("head.pcap", args->skb, 34, 0);
	\$e = skboutput("/tmp/none.pcap", args->skb, args->skb->len + 1, 0);
	printf("%d %d %d %d\n", \$r, \$h, \$e, args->skb->len);
}
BT
t0=$(date +%s)
out=$(sonde -c 'ping -c 3 127.0.0.1' skb.bt 2>&1) || fail "sonde failed: $out"
t1=$(date +%s)
lines=$(echo "$out" | grep -v '^PING\|^64 bytes\|^---\|packets\|round-trip\|^$')
want='Attaching 1 probe...
0 0 -14 98
0 0 -14 98
0 0 -14 98
0 0 -14 98
0 0 -14 98
0 0 -14 98'
[ "$lines" = "$want" ] || fail "sonde printed [$out]"
# the file header: magic, version 2.4, zone 0, sigfigs 0, snaplen 65535, LINKTYPE_RAW (101)
for p in ip.pcap head.pcap none.pcap; do
	[ -f "$p" ] || fail "no $p"
	hdr=$(od -An -tx1 -N 24 "$p" | tr -s ' \n' ' ')
	[ "$hdr" = " d4 c3 b2 a1 02 00 04 00 00 00 00 00 00 00 00 00 ff ff 00 00 65 00 00 00 " ] ||
		fail "$p header: [$hdr]"
done
[ "$(size none.pcap)" = 24 ] || fail "none.pcap has records: $(size none.pcap) bytes"
[ "$(size ip.pcap)" = $((24 + 6 * (16 + 84))) ] || fail "ip.pcap: $(size ip.pcap) bytes"
[ "$(size head.pcap)" = $((24 + 6 * (16 + 34))) ] || fail "head.pcap: $(size head.pcap) bytes"
# ip.pcap: IP packets of 84 bytes (20 IP + 8 ICMP + 56 data), 3 requests, 3 replies
off=24 req=0 rep=0 last=0
while [ $off -lt $(size ip.pcap) ]; do
	s=$(u32 ip.pcap $off) us=$(u32 ip.pcap $((off + 4)))
	[ "$s" -ge "$t0" ] && [ "$s" -le "$t1" ] || fail "record at $off: time $s not in [$t0, $t1]"
	[ "$us" -lt 1000000 ] || fail "record at $off: $us microseconds"
	ts=$((s * 1000000 + us))
	[ $ts -ge $last ] || fail "record at $off goes back in time"
	last=$ts
	[ "$(u32 ip.pcap $((off + 8)))" = 84 ] && [ "$(u32 ip.pcap $((off + 12)))" = 84 ] ||
		fail "record at $off: caplen/len $(u32 ip.pcap $((off + 8)))/$(u32 ip.pcap $((off + 12)))"
	p=$((off + 16))
	[ "$(u8 ip.pcap $p)" = 69 ] || fail "record at $off: not an IPv4 header ($(u8 ip.pcap $p))"
	[ "$(u8 ip.pcap $((p + 9)))" = 1 ] || fail "record at $off: not ICMP"
	case $(u8 ip.pcap $((p + 20))) in
	8) req=$((req + 1)) ;;
	0) rep=$((rep + 1)) ;;
	*) fail "record at $off: ICMP type $(u8 ip.pcap $((p + 20)))" ;;
	esac
	off=$((off + 16 + 84))
done
[ $req = 3 ] && [ $rep = 3 ] || fail "ip.pcap: $req requests, $rep replies"
# head.pcap: the first 34 bytes from the skb's data: the Ethernet header
# (type 0x0800), then the IP header
off=24
while [ $off -lt $(size head.pcap) ]; do
	[ "$(u32 head.pcap $((off + 8)))" = 34 ] && [ "$(u32 head.pcap $((off + 12)))" = 34 ] ||
		fail "head.pcap record at $off: caplen/len $(u32 head.pcap $((off + 8)))"
	p=$((off + 16))
	[ "$(u8 head.pcap $((p + 12)))$(u8 head.pcap $((p + 13)))$(u8 head.pcap $((p + 14)))" = 8069 ] ||
		fail "head.pcap record at $off: $(od -An -tx1 -j $p -N 34 head.pcap)"
	off=$((off + 16 + 34))
done
echo "note: kfunc:$f, $(size ip.pcap) + $(size head.pcap) bytes of pcap"
exit 0
