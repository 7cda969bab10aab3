#!/usr/bin/env bash
# tools/sslsniff.bt: an `openssl s_client` -> `openssl s_server` exchange on
# loopback; the 8000-byte payload (one s_client read, one TLS record) must show up whole, both as
# the client's SSL_write and as the server's SSL_read.
SONDE=${SONDE:-./sonde}
command -v openssl >/dev/null || { echo "openssl is not installed"; exit 77; }
tmp=$(mktemp -d)
cleanup() {
	for p in ${client:-} ${server:-} ${tracer:-}; do kill "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
	-subj /CN=localhost -keyout "$tmp/key.pem" -out "$tmp/cert.pem" 2>/dev/null || exit 1
# printable, no newline: %r prints it as is
head -c 6000 /dev/urandom | base64 -w0 >"$tmp/payload"
BPFTRACE_STRLEN=65536 "$SONDE" tools/sslsniff.bt >"$tmp/out" 2>&1 & tracer=$!
for _ in $(seq 100); do grep -q '^Tracing' "$tmp/out" && break; sleep 0.1; done
port=$((20000 + RANDOM % 20000))
# s_server quits at EOF on its stdin: give it a fifo that this shell holds open
mkfifo "$tmp/in"; exec 5<>"$tmp/in"
openssl s_server -accept "127.0.0.1:$port" -cert "$tmp/cert.pem" -key "$tmp/key.pem" -naccept 1 \
	>"$tmp/server" 2>&1 <"$tmp/in" & server=$!
for _ in $(seq 50); do grep -q '^ACCEPT' "$tmp/server" && break; sleep 0.1; done
openssl s_client -connect "127.0.0.1:$port" -quiet <"$tmp/payload" >/dev/null 2>&1 & client=$!
for _ in $(seq 50); do [ "$(grep -cxF "$(cat "$tmp/payload")" "$tmp/out")" -ge 2 ] && break; sleep 0.1; done
exec 5>&- # the server sees EOF and quits, and so does the client
kill -INT $tracer; wait $tracer
payload=$(cat "$tmp/payload")
n=${#payload}
fail=0
grep -q "^WRITE pid=[0-9]* comm=openssl len=$n\$" "$tmp/out" || { echo "no WRITE len=$n line"; fail=1; }
grep -q "^READ pid=[0-9]* comm=openssl len=$n\$" "$tmp/out" || { echo "no READ len=$n line"; fail=1; }
[ "$(grep -cxF "$payload" "$tmp/out")" = 2 ] || { echo "the payload did not arrive whole twice"; fail=1; }
[ $fail = 0 ] || { cp "$tmp/out" /tmp/sslsniff.last; head -c 3000 "$tmp/out" | cut -c1-200; echo; grep -E '^(WRITE|READ)' "$tmp/out"; }
exit $fail
