#!/usr/bin/env bash
# sonde flamegraph of a CPython program: what the Python frames cost.
# (1) BPF run time per sample (the kernel's BPF_ENABLE_STATS, bench/
# bpf_prog_cost.py's busy Python loop 10 frames deep, profile:hz:999 for
# 3 s): the sampling program flamegraph runs for a CPython target,
# @[comm, kstack, pystack, ustack], against the native-only one it ran
# before, @[comm, kstack, ustack], and against no stack.  (2) End to end,
# next to perf (py-spy is not in Debian 12): the CPU time of a fixed-work
# program (tests/python/flame_app.py, ROUNDS rounds) untraced, under
# `sonde flamegraph -F 999 --folded --` and under `perf record -F 999 -g --`,
# as the program itself reports it (time.process_time(): its own CPU time,
# which includes the sampling interrupts on its CPU).  Medians of R runs.
#   R=5 ROUNDS=20 bench/flame_python.sh
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
PY=/usr/bin/python3.11
R=${R:-5}
ROUNDS=${ROUNDS:-20}
[ -x ./sonde ] || make -s sonde >/dev/null
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

cost() { # KEY -> "median ns/run, median total ns, median matched samples"
	: >"$tmp/ns"; : >"$tmp/tot"; : >"$tmp/n"
	local p
	for _ in $(seq "$R"); do
		if [ -n "$1" ]; then p="profile:hz:999 /pid == PID/ { @s[$1] = count(); @n = count(); }"
		else p="profile:hz:999 /pid == PID/ { @n = count(); }"; fi
		read -r ns runs n <<<"$($PY bench/bpf_prog_cost.py ./sonde -q -p PID -e "$p")"
		echo "$ns" >>"$tmp/ns"; echo $((ns * runs)) >>"$tmp/tot"; echo "$n" >>"$tmp/n"
	done
	echo "$(median "$tmp/ns") $(median "$tmp/tot") $(median "$tmp/n")"
}
read -r b_ns b_tot b_n <<<"$(cost '')"
echo "no stack: ${b_ns} ns per run, ${b_n} samples of the Python process"
row() { # LABEL KEY
	read -r ns tot n <<<"$(cost "$2")"
	awk -v l="$1" -v ns="$ns" -v tot="$tot" -v n="$n" -v btot="$b_tot" 'BEGIN {
		printf "%s: %d ns per run; adds %.0f ns per Python sample (%d samples)\n", l, ns,
			(tot - btot) / (n > 0 ? n : 1), n }'
}
row "native only, @[comm, kstack, ustack] (flamegraph before)" "comm, kstack, ustack"
row "merged, @[comm, kstack, pystack, ustack] (flamegraph now)" "comm, kstack, pystack, ustack"

# (2) the program's own CPU time, appended to $tmp/cpu.NAME
app=$PWD/tests/python/flame_app.py
prog=(-c "import os, runpy, sys, time; sys.argv = ['$app', '$ROUNDS']
runpy.run_path('$app', run_name='__main__')
open(os.environ['CPU_OUT'], 'a').write('%f\n' % time.process_time())")
: >"$tmp/cpu.none"; : >"$tmp/cpu.sonde"; : >"$tmp/cpu.perf"
have_perf=1; need perf || have_perf=0
for _ in $(seq "$R"); do
	CPU_OUT=$tmp/cpu.none $PY "${prog[@]}"
	CPU_OUT=$tmp/cpu.sonde ./sonde flamegraph -F 999 --folded -- $PY "${prog[@]}" >"$tmp/f" 2>/dev/null
	[ $have_perf = 1 ] && CPU_OUT=$tmp/cpu.perf perf record -q -F 999 -g -o "$tmp/perf.data" -- \
		$PY "${prog[@]}" >/dev/null 2>&1
done
none=$(median "$tmp/cpu.none")
ovh() { # NAME LABEL
	[ -s "$tmp/cpu.$1" ] || return 0
	awk -v l="$2" -v t="$(median "$tmp/cpu.$1")" -v b="$none" 'BEGIN {
		printf "%s: %.3f s of CPU, %+.1f%% against %.3f s untraced\n", l, t, (t - b) / b * 100, b }'
}
ovh sonde "sonde flamegraph -F 999 (merged Python + native)"
ovh perf "perf record -F 999 -g (native only)"
echo "python frames in the last sonde run: $(grep -c ' (.*flame_app.py:' "$tmp/f") distinct stacks of $(wc -l <"$tmp/f")"
