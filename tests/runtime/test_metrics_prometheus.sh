#!/usr/bin/env bash
# sonde --metrics, scraped by a real Prometheus (Debian's prometheus package):
# a script fills counters, a hist and an lhist, then stops changing them;
# Prometheus scrapes sonde every second on loopback, and the values its HTTP
# API returns must equal what sonde prints for the same maps at exit.
# Every wait is a poll with a deadline: load only makes the test slower.
SONDE=${SONDE:-./sonde}
command -v prometheus >/dev/null || { echo "prometheus not installed"; exit 77; }
command -v curl >/dev/null || { echo "curl not installed"; exit 77; }
tmp=$(mktemp -d /tmp/sonde-prom.XXXXXX)
spid='' ppid=''
cleanup() {
	[ -n "$spid" ] && kill "$spid" 2>/dev/null
	[ -n "$ppid" ] && kill "$ppid" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; for f in sonde.err prom.log; do echo "--- $f"; tail -20 "$tmp/$f"; done; exit 1; }
# poll CMD until it succeeds, at most $1 seconds
until_ok() {
	local end=$((SECONDS + $1)); shift
	until "$@"; do [ $SECONDS -lt $end ] || return 1; sleep 0.2; done
}

# 300 events, then the maps stay as they are (a stable state to compare)
cat > "$tmp/m.bt" <<'EOF'
interval:ms:2 /@step < 300/ {
	@step = @step + 1;
	@calls[(uint64)@step % 3, "a \"q\"\\z"] = count();
	@weight = sum(@step * 2);
	@spread = hist(@step);
	@linear = lhist(@step, 0, 250, 50);
}
EOF
"$SONDE" --metrics 127.0.0.1:0 "$tmp/m.bt" > "$tmp/sonde.out" 2> "$tmp/sonde.err" &
spid=$!
port_known() { grep -qo 'http://127.0.0.1:[0-9]*/metrics' "$tmp/sonde.err"; }
until_ok 60 port_known || fail "sonde did not say where it serves"
port=$(grep -o 'http://127.0.0.1:[0-9]*/metrics' "$tmp/sonde.err" | sed -E 's/.*:([0-9]+)\/.*/\1/')
curl -sf "http://127.0.0.1:$port/metrics" > "$tmp/scrape.txt" || fail "no answer at /metrics"
if command -v promtool >/dev/null; then # the text format's own linter
	promtool check metrics < "$tmp/scrape.txt" > "$tmp/lint" 2>&1 || fail "promtool: $(cat "$tmp/lint")"
fi

# a free port for Prometheus (the kernel's choice; retried if taken meanwhile)
start_prometheus() {
	pport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	cat > "$tmp/prom.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: sonde
    static_configs:
      - targets: ['127.0.0.1:$port']
EOF
	prometheus --config.file="$tmp/prom.yml" --storage.tsdb.path="$tmp/data" \
		--web.listen-address="127.0.0.1:$pport" > "$tmp/prom.log" 2>&1 &
	ppid=$!
}
query() { # PromQL -> the API's JSON
	curl -sf "http://127.0.0.1:$pport/api/v1/query" --data-urlencode "query=$1"
}
value_of() { # PromQL of one series -> its value
	query "$1" | python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")'
}
start_prometheus
prom_up() { curl -sf "http://127.0.0.1:$pport/-/ready" >/dev/null; }
if ! until_ok 60 prom_up; then
	kill "$ppid" 2>/dev/null; wait "$ppid" 2>/dev/null
	start_prometheus
	until_ok 60 prom_up || fail "Prometheus did not start"
fi
# the script's last event is in, then one more scrape: nothing moves after it
done_300() { [ "$(value_of sonde_step)" = 300 ]; }
until_ok 90 done_300 || fail "Prometheus never saw sonde_step = 300 (got '$(value_of sonde_step)')"
t0=$(value_of 'timestamp(sonde_step)')
newer() { python3 -c "import sys; sys.exit(0 if float('$(value_of 'timestamp(sonde_step)')' or 0) > float('$t0') else 1)"; }
until_ok 30 newer || fail "no scrape after the maps settled"
query '{__name__=~"sonde_calls_total|sonde_weight_total|sonde_spread_bucket|sonde_linear_bucket|sonde_spread_count|sonde_attached_probes"}' \
	> "$tmp/prom.json" || fail "query failed"
kill -INT "$spid"
wait "$spid"; rc=$?
spid=''
[ $rc = 0 ] || fail "sonde exited with $rc"
curl -s "http://127.0.0.1:$port/metrics" >/dev/null && fail "something still answers on port $port after exit"

# sonde's own printing of the maps at exit, against Prometheus's values
python3 - "$tmp/sonde.out" "$tmp/prom.json" <<'EOF' || fail "Prometheus and sonde disagree"
import json, re, sys
text = open(sys.argv[1]).read()
res = json.load(open(sys.argv[2]))["data"]["result"]
prom = {}
for r in res:
    m = r["metric"]
    key = (m["__name__"],) + tuple(sorted((k, v) for k, v in m.items() if k not in ("__name__", "job", "instance")))
    prom[key] = float(r["value"][1])
bad = []
def expect(key, want):
    got = prom.get(key)
    if got != float(want):
        bad.append("%s: prometheus %s, sonde %s" % (key, got, want))

# counters: "@calls[0, a "q"\z]: 100", "@weight: 90300"
for k0, k1, v in re.findall(r'^@calls\[(\d+), (.*)\]: (\d+)$', text, re.M):
    expect(("sonde_calls_total", ("key0", k0), ("key1", k1)), v)
expect(("sonde_weight_total",), re.search(r'^@weight: (\d+)$', text, re.M).group(1))
if len([k for k in prom if k[0] == "sonde_calls_total"]) != 3:
    bad.append("sonde_calls_total: %d series, not 3" % len([k for k in prom if k[0] == "sonde_calls_total"]))

def num(s):  # 4K -> 4096
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(s[:-1]) * mult[s[-1]] if s[-1] in mult else int(s)

def rows(name):  # a histogram's printed rows: (lowest, highest value, count)
    block = re.search(r'^@%s: \n((?:.+\n)+)' % name, text, re.M).group(1)
    out = []
    for line in block.splitlines():
        m = re.match(r'^(\S+(?:, \S+)?)\s+(\d+) \|', line)
        lab, n = m.group(1), int(m.group(2))
        if lab.startswith("(...,"):
            out.append((float("-inf"), num(lab[6:-1]) - 1, n))
        elif lab.endswith("...)"):
            out.append((num(lab[1:].split(",")[0]), float("inf"), n))
        elif "," in lab:
            lo, hi = lab[1:-1].split(", ")
            out.append((num(lo), num(hi) - 1, n))
        else:
            out.append((num(lab[1:-1]),) * 2 + (n,))
    return out

for name in ("spread", "linear"):
    r = rows(name)
    buckets = {k: v for k, v in prom.items() if k[0] == "sonde_%s_bucket" % name}
    if len(buckets) < 3:
        bad.append("sonde_%s_bucket: only %d buckets" % (name, len(buckets)))
    for key, got in buckets.items():
        le = float(dict(key[1:])["le"])
        want = sum(n for lo, hi, n in r if hi <= le)
        if got != want:
            bad.append("%s le=%s: prometheus %s, sonde's rows give %s" % (key[0], le, got, want))
    if not any(dict(k[1:])["le"] == "+Inf" for k in buckets):
        bad.append("sonde_%s_bucket: no +Inf bucket" % name)
expect(("sonde_spread_count",), 300)
expect(("sonde_attached_probes",), 1)
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
exit 0
