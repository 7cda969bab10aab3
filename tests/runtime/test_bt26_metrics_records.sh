#!/usr/bin/env bash
# --metrics with bpftrace 0.26 records as map keys: each field is a label
# named after it (docs/metrics.md), on a live scrape, and -f pprof labels
# its samples with the same names.
SONDE=${SONDE:-./sonde}
command -v curl >/dev/null || { echo "curl not installed"; exit 77; }
tmp=$(mktemp -d /tmp/sonde-metrec.XXXXXX)
spid=''
cleanup() { [ -n "$spid" ] && kill "$spid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "--- scrape"; cat "$tmp/scrape.txt" 2>/dev/null; echo "--- stderr"; tail -5 "$tmp/err"; exit 1; }
until_ok() {
	local end=$((SECONDS + $1)); shift
	until "$@"; do [ $SECONDS -lt $end ] || return 1; sleep 0.1; done
}

"$SONDE" --metrics 127.0.0.1:0 -e 'interval:ms:10 /@n < 5/ {
	@n = @n + 1;
	@calls[(kind = "tick", step = @n % 2)] = count();
}' > "$tmp/out" 2> "$tmp/err" &
spid=$!
port_known() { grep -qo 'http://127.0.0.1:[0-9]*/metrics' "$tmp/err"; }
until_ok 30 port_known || fail "sonde did not say where it serves"
port=$(grep -o 'http://127.0.0.1:[0-9]*/metrics' "$tmp/err" | sed -E 's/.*:([0-9]+)\/.*/\1/')
settled() {
	curl -sf "http://127.0.0.1:$port/metrics" > "$tmp/scrape.txt" &&
		grep -q '^sonde_n 5$' "$tmp/scrape.txt"
}
until_ok 30 settled || fail "the maps did not settle"
grep -q '^sonde_calls_total{kind="tick",step="1"} 3$' "$tmp/scrape.txt" || fail "record fields are not the labels"
grep -q '^sonde_calls_total{kind="tick",step="0"} 2$' "$tmp/scrape.txt" || fail "record fields are not the labels"
grep -q 'key0' "$tmp/scrape.txt" && fail "a record field labelled key0"
kill -INT "$spid"; wait "$spid"; spid=''

if command -v go >/dev/null && go tool pprof -h >/dev/null 2>&1; then
	"$SONDE" -f pprof -o "$tmp/p.pb.gz" -c 'build/progs/flame_target 1' \
		-e 'profile:hz:199 /pid == cpid/ { @cpu[(who = comm, st = ustack)] = count(); }' > "$tmp/err" 2>&1 ||
		fail "-f pprof failed"
	out=$(go tool pprof -tags "$tmp/p.pb.gz" 2>&1)
	grep -q 'who:' <<<"$out" || { echo "$out"; fail "pprof label is not the field name 'who'"; }
fi
echo "ok"
