#!/usr/bin/env bash
# The Python tools (tools/py*.bt) on Debian's CPython 3.11 with a known
# workload (tests/python/tools_app.py, hot.py): each must name what the
# workload did, with the right Python lines.
SONDE=${SONDE:-./sonde}
PY=/usr/bin/python3.11
[ -x $PY ] || { echo "no $PY"; exit 77; }
T=$PWD/tests/python
tmp=$(mktemp -d)
trap 'kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
failed=0
fail() { printf 'FAIL %s\n--- output\n%s\n' "$1" "$out"; failed=1; }
dd if=/dev/urandom of="$tmp/data" bs=64k count=4 status=none
APP="$PY $T/tools_app.py $tmp/data"
run() { out=$(timeout 60 "$SONDE" -q "$@" 2>&1); }

run -c "$APP" tools/pycalls.bt
grep -qxF "@calls[$T/tools_app.py, work]: 200" <<<"$out" || fail "pycalls: 200 calls of work"
# a histogram's heading: "@usecs[work]: " in bpftrace 0.17, without the space in 0.26
grep -qxE "@usecs\[work\]: ?" <<<"$out" || fail "pycalls: latency of work"
grep -q "CPython issue 98894" <<<"$out" || fail "pycalls: the line-probe note"

run -c "$APP" tools/pygc.bt
grep -A1 -F '@trigger[2, ' <<<"$out" | grep -qF "[ $T/tools_app.py:25 (main) ]" ||
	fail "pygc: gc.collect() at tools_app.py:25"
grep -qxE '@pause_us\[2\]: ?' <<<"$out" || fail "pygc: generation 2 pauses"

run -c "$APP" tools/pyimports.bt
grep -qE "^[0-9]+ +json +[0-9]+ us$" <<<"$out" || fail "pyimports: json"
grep -qE '^@us\[json\.decoder\]: [0-9]+$' <<<"$out" || fail "pyimports: json.decoder total"

run -c "$APP" tools/pyaudit.bt
grep -A1 -E "^[0-9]+ +open$" <<<"$out" | grep -qF "[ $T/tools_app.py:27 (main) ]" ||
	fail "pyaudit: open at tools_app.py:27"
grep -qE '^@events\[import\]: [0-9]+$' <<<"$out" || fail "pyaudit: imports"
grep -q "WARNING" <<<"$out" && fail "pyaudit warns: $(grep -m1 WARNING <<<"$out")"
grep -q "@audited" <<<"$out" && fail "pyaudit prints its table of names"

run -c "$APP" tools/pyleak.bt
grep -qxF "@live[Leaky]: 50" <<<"$out" || fail "pyleak: 50 Leaky kept"

run -c "$APP" tools/pyio.bt 0
grep -A1 -F '@pages[python3.11, ' <<<"$out" | grep -qF "[ $T/tools_app.py:29 (main) ]" ||
	fail "pyio: the read at tools_app.py:29"

# pyflame: the hot function is the widest, in folded output and as an SVG
$PY $T/hot.py & pid=$!
"$SONDE" -q -f folded -p $pid tools/pyflame.bt $pid >"$tmp/py.folded" 2>&1
out=$(sort -t' ' -k2,2nr "$tmp/py.folded" | head -3)
hot=$(awk '/;hot \(/ { s += $NF } END { print s + 0 }' "$tmp/py.folded")
cold=$(awk '/;cold \(/ { s += $NF } END { print s + 0 }' "$tmp/py.folded")
[ "$hot" -gt $((3 * cold)) ] && [ "$hot" -gt 20 ] || fail "pyflame: hot $hot samples, cold $cold"
grep -q "^<module> ($T/hot.py:14);main ($T/hot.py:13);hot ($T/hot.py:[34]) [0-9]*$" "$tmp/py.folded" ||
	fail "pyflame: folded frames"
if "$SONDE" -h 2>&1 | grep -q flamegraph; then
	"$SONDE" flamegraph --from-folded "$tmp/py.folded" -o "$tmp/py.svg" 2>/dev/null
	grep -q "hot ($T/hot.py" "$tmp/py.svg" || { out=$(head -c 300 "$tmp/py.svg"); fail "pyflame: svg"; }
fi
exit $failed
