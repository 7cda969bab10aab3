# socket_cookie(args.sk) under fentry (bpftrace 0.26's example and its test
# "socket_cookie": fentry:tcp_v4_connect).  A loopback TCP connection made
# by busybox nc: the cookie the client's socket has at connect is not 0 and
# is the one it has when closed (a cookie is stable for the socket's life),
# and the other sockets closed (the listener, the accepted one) have
# cookies of their own.
# timeout: 200
fail() { echo "$*"; exit 1; }
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
[ -n "$(sonde -l 'kfunc:tcp_v4_connect')" ] || { echo "no kfunc:tcp_v4_connect"; exit 77; }
cat > /tmp/conn.sh <<'SH'
nc -l -p 7007 > /dev/null &
sleep 1
echo hello | nc -w 5 127.0.0.1 7007
wait
SH
out=$(SONDE_COMPAT= timeout 90 sonde -c 'sh /tmp/conn.sh' -e '
fentry:tcp_v4_connect /comm == "nc"/ { printf("connect %llu\n", socket_cookie(args.sk)); }
fentry:tcp_close /comm == "nc"/ { printf("close %llu\n", socket_cookie(args.sk)); }' 2>&1)
c=$(echo "$out" | sed -n 's/^connect \([0-9]*\)$/\1/p')
[ "$(echo "$c" | wc -w)" = 1 ] && [ "$c" != 0 ] || fail "one connect with a cookie: [$out]"
echo "$out" | grep -qx "close $c" || fail "the client's socket closed with another cookie than $c: [$out]"
others=$(echo "$out" | sed -n 's/^close \([0-9]*\)$/\1/p' | grep -vx "$c" | grep -vx 0 | sort -u | wc -l)
[ "$others" -ge 1 ] || fail "no other socket's cookie: [$out]"
exit 0
