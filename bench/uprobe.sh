#!/usr/bin/env bash
# uprobe overhead: build/progs/uprobe_target calls add3() N times (default
# 1,000,000); prints the added time per call with a counting uprobe under
# sonde and under bpftrace (best of 3 runs each).
set -u
cd "$(dirname "$0")/.."
N=${N:-1000000}
T=$PWD/build/progs/uprobe_target
[ -x ./sonde ] && [ -x "$T" ] || make -s sonde "$T" >/dev/null
best() { # command... -> best wall time in ns of 3 runs
	local b=
	for _ in 1 2 3; do
		local s e; s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N)
		[ -z "$b" ] || [ $((e - s)) -lt "$b" ] && b=$((e - s))
	done
	echo "$b"
}
prog="uprobe:$T:add3 { @ = count(); }"
base=$(best "$T" "$N")
s=$(best ./sonde -q -e "$prog" -c "$T $N")
b=$(best bpftrace -q -e "$prog" -c "$T $N")
# the tracers' own start-up is included: measure it with 0 calls
s0=$(best ./sonde -q -e "$prog" -c "$T 0")
b0=$(best bpftrace -q -e "$prog" -c "$T 0")
awk -v n="$N" -v base="$base" -v s="$s" -v s0="$s0" -v b="$b" -v b0="$b0" 'BEGIN {
	sp = (s - s0 - base) / n; bp = (b - b0 - base) / n; r = 0
	if (bp > 0) r = sp / bp
	printf("uprobe, %d calls: untraced %.1f ms; added per call: sonde %.0f ns, bpftrace %.0f ns (ratio %.2f)\n", n, base / 1e6, sp, bp, r) }'
