#!/usr/bin/env bash
# The destination port of a loopback TCP connection read from the kernel's
# struct sock (cast from the tracepoint's void * skaddr), against the port
# the test chose.
set -u
command -v python3 >/dev/null || { echo "no python3"; exit 77; }
port=$((40000 + RANDOM % 20000))
py="import socket,time
s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('127.0.0.1', $port)); s.listen(1)
c=socket.create_connection(('127.0.0.1', $port)); a=s.accept(); time.sleep(0.1); c.close()"
printf '%s\n' "$py" > /tmp/sonde_tcp_$$.py
out=$(timeout 30 "$SONDE" -q -c "python3 /tmp/sonde_tcp_$$.py" -e '
tracepoint:sock:inet_sock_set_state /args->newstate == 1 && args->dport == '$port'/ {
	$sk = (struct sock *)args->skaddr;
	$d = $sk->__sk_common.skc_dport;
	printf("dport %d family %d num_ok %d\n", (($d & 0xff) << 8) | ($d >> 8),
	       $sk->__sk_common.skc_family, $sk->__sk_common.skc_num == args->sport);
	exit();
}' 2>&1)
rm -f /tmp/sonde_tcp_$$.py
want="dport $port family 2 num_ok 1"
[ "$(printf '%s\n' "$out" | head -1)" = "$want" ] || { echo "got: $out"; echo "want: $want"; exit 1; }
