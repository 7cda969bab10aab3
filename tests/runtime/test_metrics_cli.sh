#!/usr/bin/env bash
# sonde --metrics: bad addresses, a port in use and maps with no metric form
# get clear messages; every way out of a run (SIGINT, SIGTERM, exit(), the
# end of -c) leaves nothing listening; a 10k-key map is served whole (the
# time a scrape takes is printed, not judged: the machine may be loaded).
SONDE=${SONDE:-./sonde}
command -v curl >/dev/null || { echo "curl not installed"; exit 77; }
tmp=$(mktemp -d /tmp/sonde-metrics.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { printf 'FAIL: %s\n--- output\n%s\n' "$1" "$out"; exit 1; }
until_ok() { # seconds, command...: poll until it succeeds
	local end=$((SECONDS + $1)); shift
	until "$@"; do [ $SECONDS -lt $end ] || return 1; sleep 0.1; done
}

# bad addresses: refused before anything is compiled or attached
out=$("$SONDE" --metrics 127.0.0.1:http -e 'BEGIN { exit() }' 2>&1) && fail "a port name accepted"
grep -q "the port must be a number" <<<"$out" || fail "no message for a bad port"
out=$("$SONDE" --metrics no-such-host.invalid:9100 -e 'BEGIN { exit() }' 2>&1) && fail "a bad host accepted"
grep -q "bad address 'no-such-host.invalid'" <<<"$out" || fail "no message for a bad host"
out=$("$SONDE" --metrics '[::1:9100' -e 'BEGIN { exit() }' 2>&1) && fail "a bad IPv6 address accepted"
grep -q "brackets" <<<"$out" || fail "no message for an unclosed bracket"

# a port in use: sonde stops before attaching
python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(); print(s.getsockname()[1], flush=True); time.sleep(60)' \
	> "$tmp/busy" &
pids+=($!)
until_ok 20 test -s "$tmp/busy" || fail "no listener to collide with"
busy=$(cat "$tmp/busy")
out=$("$SONDE" --metrics "127.0.0.1:$busy" -e 'BEGIN { printf("ran\n"); exit() }' 2>&1) && fail "a port in use accepted"
grep -q "already in use" <<<"$out" || fail "no message for a port in use"
grep -q "ran\|Attaching" <<<"$out" && fail "probes ran although the port was taken"

# maps with no metric form are named, the others still served
out=$("$SONDE" --metrics 127.0.0.1:0 -e 'BEGIN { @s[1] = "x"; @k[kstack] = count(); @n = 3; exit() }' 2>&1)
grep -q "@s is not served: its values are not numbers" <<<"$out" || fail "no message for string values"
grep -q "@k is not served: it is keyed by stacks" <<<"$out" || fail "no message for stack keys"

# start sonde serving; sets spid and port
serve() { # log, sonde arguments...
	local log=$1; shift
	"$SONDE" --metrics 127.0.0.1:0 "$@" > "$log.out" 2> "$log" &
	spid=$!
	pids+=($spid)
	until_ok 60 grep -q 'Serving metrics at' "$log" || { out=$(cat "$log"); fail "not serving: $*"; }
	port=$(sed -nE 's|.*http://127.0.0.1:([0-9]+)/metrics.*|\1|p' "$log")
}
closed() { # nothing answers at $port any more
	! curl -s -m 5 "http://127.0.0.1:$port/metrics" >/dev/null
}
for how in INT TERM; do
	serve "$tmp/$how" -e 'interval:ms:100 { @ticks = count(); }'
	out=$(curl -s -m 20 "http://127.0.0.1:$port/metrics")
	grep -q '^sonde_ticks_total ' <<<"$out" || fail "SIG$how run: @ticks not served"
	kill -$how $spid
	wait $spid
	closed || fail "port $port still answers after SIG$how"
done
serve "$tmp/exit" -e 'interval:ms:1500 { exit(); }'
wait $spid
closed || fail "port $port still answers after exit()"
serve "$tmp/cmd" -e 'tracepoint:syscalls:sys_enter_nanosleep { @sleeps = count(); }' -c 'sleep 1'
wait $spid
closed || fail "port $port still answers after the -c command ended"

# 10k keys: every one served (the time is for the record)
BPFTRACE_MAP_KEYS_MAX=10240 serve "$tmp/big" \
	-e 'interval:ms:5 /@n < 40/ { $i = 0; while ($i < 250) { @k[@n * 250 + $i, "key"] = count(); $i++; } @n++ }'
full() { [ "$(curl -s -m 20 "http://127.0.0.1:$port/metrics" | grep -c '^sonde_k_total{')" = 10000 ]; }
until_ok 60 full || fail "a 10k-key map not served whole"
t=$(curl -s -m 20 -o /dev/null -w '%{time_total}' "http://127.0.0.1:$port/metrics")
echo "scrape of a 10k-key map: ${t}s"
kill -INT $spid
wait $spid
exit 0
