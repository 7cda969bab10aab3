#!/usr/bin/env bash
# Python: (1) the cost of a pystack sample: the kernel's own run-time stats
# (BPF_ENABLE_STATS) of `profile:hz:999 /pid == PID/ { @s[STACK] = count();
# @n = count(); }` sampling a busy Python loop 10 frames deep, with pystack,
# with ustack (sonde and bpftrace) and with no stack: mean time per run and
# the time the stack adds per sample of the Python process; (2) the cost of a
# runtime probe (python/sonde_probes.py) fired N times (1M), with no tracer
# and with sonde counting it.  Medians of R runs (3).
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
PY=/usr/bin/python3.11
R=${R:-3}
[ -x ./sonde ] || make -s sonde >/dev/null
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

cost() { # TRACER STACK -> "median ns/run, median total ns, median matched samples"
	: >"$tmp/ns"; : >"$tmp/tot"; : >"$tmp/n"
	local st=$2
	for _ in $(seq "$R"); do
		if [ -n "$st" ]; then p="profile:hz:999 /pid == PID/ { @s[$st] = count(); @n = count(); }"
		else p="profile:hz:999 /pid == PID/ { @n = count(); }"; fi
		read -r ns runs n <<<"$($PY bench/bpf_prog_cost.py "$1" -q -p PID -e "$p")"
		echo "$ns" >>"$tmp/ns"; echo $((ns * runs)) >>"$tmp/tot"; echo "$n" >>"$tmp/n"
	done
	echo "$(median "$tmp/ns") $(median "$tmp/tot") $(median "$tmp/n")"
}
read -r b_ns b_tot b_n <<<"$(cost ./sonde '')"
echo "no stack (sonde): ${b_ns} ns per run, ${b_n} samples of the Python process"
row() { # LABEL TRACER STACK
	read -r ns tot n <<<"$(cost "$2" "$3")"
	awk -v l="$1" -v ns="$ns" -v tot="$tot" -v n="$n" -v btot="$b_tot" -v bn="$b_n" 'BEGIN {
		printf "%s: %d ns per run; adds %.0f ns per Python sample (%d samples)\n", l, ns,
			(tot - btot) / (n > 0 ? n : 1), n }'
}
row "sonde @[pystack]" ./sonde pystack
row "sonde @[ustack]" ./sonde ustack
need bpftrace && row "bpftrace @[ustack]" bpftrace ustack

N=${N:-1000000}
export PYTHONPATH=$PWD/python
: >"$tmp/d"; : >"$tmp/a"; : >"$tmp/e"
for _ in $(seq "$R"); do
	$PY bench/pyprobe.py "$N" | tail -1 >"$tmp/r"
	awk '{ print $1 }' "$tmp/r" >>"$tmp/d"; awk '{ print $2 }' "$tmp/r" >>"$tmp/e"
	$PY bench/pyprobe.py "$N" attached >"$tmp/r" &
	pid=$!
	for _ in $(seq 200); do grep -q ready "$tmp/r" && break; sleep 0.05; done
	./sonde -q -p $pid -e 'usdt:*:bench:tick { @ = count(); }' >"$tmp/cnt" 2>&1
	wait $pid
	tail -1 "$tmp/r" | awk '{ print $1 }' >>"$tmp/a"
done
awk -v d="$(median "$tmp/d")" -v a="$(median "$tmp/a")" -v e="$(median "$tmp/e")" -v n="$N" 'BEGIN {
	printf "runtime probe, %d fires: no tracer %.0f ns/fire (an empty Python call: %.0f ns), sonde attached %.0f ns/fire\n",
		n, d / n * 1e9, e / n * 1e9, a / n * 1e9 }'
grep -q "^@: $N$" "$tmp/cnt" || echo "WARNING: sonde counted $(tr '\n' ' ' <"$tmp/cnt") fires, not $N"
