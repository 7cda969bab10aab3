#!/usr/bin/env bash
# Overhead of `sonde flamegraph` on a CPU-bound program, at 99 and 999 Hz,
# beside `perf record -g` (+ `perf script`, the input of the flame graph
# scripts) at the same frequencies.
#
# The program is build/progs/flame_target --loops N, pinned to CPU 1: a
# fixed amount of work that prints its own CPU time (the measure: tool
# start-up, post-processing and waiting for a CPU on this shared machine
# are not in it; the sampling interrupts taken on its CPU are, as this
# kernel has no separate IRQ time accounting) and its voluntary and
# involuntary context switches (a tool that wakes up on the program's CPU
# shows as involuntary switches).
#
# ROUNDS rounds each run the five cases (untraced, sonde 99, sonde 999,
# perf 99, perf 999), the order rotated every round so that no case always
# follows another.  A case's overhead is taken round by round against that
# round's untraced run (the machine's drift hits both), and the median of
# those ratios is reported with its spread (lower and upper quartile);
# also the minimum against the untraced minimum.  Beside it: the tool's
# own CPU time (the whole command's CPU minus the program's, start-up and
# writing included), the wall time of the whole command, and for sonde
# the run time of its BPF program (kernel BPF stats, one more run per
# frequency) as a share of the program's CPU time.
#
# Usage: bench/flamegraph.sh [LOOPS] [ROUNDS]   (as root)
# Writes the table to stdout and to bench/results/flamegraph.md.
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
SONDE=${SONDE:-$PWD/sonde}
LOOPS=${1:-1500}
ROUNDS=${2:-11}
prog=(taskset -c 1 build/progs/flame_target --loops "$LOOPS")
[ -x build/progs/flame_target ] || make --no-print-directory build/progs/flame_target >/dev/null
need perf bpftool || exit 1
[ -x /usr/bin/time ] || { echo "bench/flamegraph.sh: /usr/bin/time missing (apt install time)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cases=(untraced sonde99 sonde999 perf99 perf999)

# tool_cmd CASE: the traced command of a case, in the array cmd
tool_cmd() {
	case $1 in
	untraced) cmd=("${prog[@]}") ;;
	sonde*) cmd=("$SONDE" flamegraph -F "${1#sonde}" -o "$tmp/fg.svg" -- "${prog[@]}") ;;
	perf*) cmd=(perf record -q -F "${1#perf}" -g -o "$tmp/perf.data" -- "${prog[@]}") ;;
	esac
}

# run_case CASE ROUND: appends "round own nvcsw nivcsw tool_cpu wall" to $tmp/CASE
run_case() {
	local c=$1 t0 t1 out u s
	tool_cmd "$c"
	t0=$EPOCHREALTIME
	out=$(/usr/bin/time -f '%U %S' -o "$tmp/time" "${cmd[@]}" 2>/dev/null)
	read -r u s < <(tail -n 1 "$tmp/time")
	if [[ $c == perf* ]]; then # perf script's CPU counts as the tool's
		/usr/bin/time -f '%U %S' -o "$tmp/time2" perf script -i "$tmp/perf.data" >"$tmp/perf.txt" 2>/dev/null
		read -r u2 s2 < <(tail -n 1 "$tmp/time2")
		u=$(LC_ALL=C awk -v a="$u" -v b="$u2" -v c="$s2" 'BEGIN { print a + b + c }')
	fi
	t1=$EPOCHREALTIME
	LC_ALL=C awk -v r="$2" -v o="$out" -v u="$u" -v s="$s" -v a="${t0/,/.}" -v b="${t1/,/.}" 'BEGIN {
		split(o, f, " ")
		printf "%d %s %d %d %.3f %.3f\n", r, f[1], f[2], f[3], u + s - f[1], b - a }' >>"$tmp/$c"
}

start=$(date -u '+%Y-%m-%d %H:%M UTC')
for ((r = 0; r < ROUNDS; r++)); do
	for ((i = 0; i < ${#cases[@]}; i++)); do
		run_case "${cases[(i + r) % ${#cases[@]}]}" "$r"
	done
done
# The tools' own cost while they sample a sleeping program (nothing to
# sample: what is left is the tool's wake-ups): CPU time (schedstat, ns)
# and context switches of the tool's processes (the command's process
# tree but sleep) from 0.7 s to 2.7 s into `-- sleep 3`, per second;
# median of 3.
tree_pids() { # PID and its descendants but sleep
	local p=$1 c
	[ "$(cat "/proc/$p/comm" 2>/dev/null)" = sleep ] || echo "$p"
	for c in $(cat /proc/"$p"/task/*/children 2>/dev/null); do tree_pids "$c"; done
}
tree_usage() { # "ns switches" of PID's tree, all threads
	local p t ns=0 cs=0 a b
	for p in $(tree_pids "$1"); do
		for t in /proc/"$p"/task/*; do
			read -r a _ <"$t/schedstat" 2>/dev/null || continue
			b=$(awk '/ctxt_switches/ { s += $2 } END { print s + 0 }' "$t/status" 2>/dev/null)
			ns=$((ns + a)) cs=$((cs + b))
		done
	done
	echo "$ns $cs"
}
idle_cost() { # CASE -> "MS ms/s, N switches/s"
	local i pid u0 u1 c0 c1
	: >"$tmp/idle"
	for i in 1 2 3; do
		case $1 in
		sonde*) cmd=("$SONDE" flamegraph -F "${1#sonde}" -o "$tmp/idle.svg" -- sleep 3) ;;
		perf*) cmd=(perf record -q -F "${1#perf}" -g -o "$tmp/idle.data" -- sleep 3) ;;
		esac
		"${cmd[@]}" >/dev/null 2>&1 &
		pid=$!
		sleep 0.7
		read -r u0 c0 < <(tree_usage "$pid")
		sleep 2
		read -r u1 c1 < <(tree_usage "$pid")
		wait "$pid"
		echo "$(((u1 - u0) / 2)) $(((c1 - c0) / 2))" >>"$tmp/idle"
	done
	LC_ALL=C awk '{ print $1 }' "$tmp/idle" >"$tmp/col"; u0=$(median "$tmp/col")
	LC_ALL=C awk '{ print $2 }' "$tmp/idle" >"$tmp/col"; c0=$(median "$tmp/col")
	LC_ALL=C awk -v u="$u0" -v c="$c0" 'BEGIN { printf "%.2f ms/s, %.0f switches/s", u / 1e6, c }'
}
for c in sonde99 sonde999 perf99 perf999; do
	echo "$(idle_cost "$c")" >"$tmp/idle_$c"
done
# BPF run time of sonde's program: one more run per frequency
for hz in 99 999; do
	tool_cmd "sonde$hz"
	/usr/bin/python3.11 bench/bpf_stats.py "${cmd[@]}" >"$tmp/bpf$hz.out" 2>"$tmp/bpf$hz.err"
done

col() { awk -v k="$2" '{ print $k }' "$tmp/$1" >"$tmp/col"; median "$tmp/col"; }
# per-round overhead of CASE in %, one a line
ratios() {
	LC_ALL=C awk 'NR == FNR { base[$1] = $2; next } ($1 in base) { printf "%.4f\n", ($2 / base[$1] - 1) * 100 }' \
		"$tmp/untraced" "$tmp/$1" | LC_ALL=C sort -g
}
quartiles() { # "median [q1, q3]" of sorted numbers on stdin
	LC_ALL=C awk '{ v[NR] = $1 } END {
		n = NR
		m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		printf "%+.2f%% [%+.2f, %+.2f]", m, v[int((n + 3) / 4)], v[int((3 * n + 3) / 4)] }'
}
min_of() { awk '{ print $2 }' "$tmp/$1" | LC_ALL=C sort -g | head -n 1; }
base_min=$(min_of untraced)
bpf_share() { # BPF run time against the program's CPU time, and per run
	local ns runs own
	read -r _ ns runs < <(grep '^bpf_stats:' "$tmp/bpf$1.err")
	own=$(awk '{ print $1 }' "$tmp/bpf$1.out")
	LC_ALL=C awk -v ns="$ns" -v n="$runs" -v o="$own" 'BEGIN {
		if (!n || !o) { print "-"; exit }
		printf "%.2f%% (%d runs, %.1f us each)", ns / (o * 1e9) * 100, n, ns / n / 1000 }'
}
{
	echo "# sonde flamegraph overhead"
	echo
	echo "\`bench/flamegraph.sh $LOOPS $ROUNDS\`, $start, $(uname -r), $(nproc) CPUs (a shared, noisy VM)."
	echo "Own CPU: the program's CPU time (fixed work, pinned to CPU 1; sampling interrupts included,"
	echo "waiting for a CPU not). Overhead: median over the $ROUNDS rounds of each round's ratio to that"
	echo "round's untraced run [lower, upper quartile]; min: fastest run against the fastest untraced."
	echo "Switches: the program's voluntary/involuntary context switches (median). Tool CPU: the"
	echo "command's CPU time minus the program's (start-up, sampling, writing; perf: record + script)."
	echo "Wall: the whole command (sonde: sampling and the SVG; perf: record, then \`perf script\`)."
	echo "BPF: sonde's program's run time on all CPUs (kernel BPF stats, a separate run) against the"
	echo "program's CPU time. Idle: the tool's processes' CPU time and context switches per second while"
	echo "they sample a sleeping program (from 0.7 s to 2.7 s into \`-- sleep 3\`, median of 3): the fixed cost."
	echo
	echo "| case | own CPU median (s) | overhead: median [quartiles] | min | switches | tool CPU (s) | wall (s) | BPF | idle |"
	echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |"
	for c in "${cases[@]}"; do
		name=$c ovh=- mn=- bpf=- idle=-
		[ -f "$tmp/idle_$c" ] && idle=$(cat "$tmp/idle_$c")
		case $c in
		sonde*) name="sonde flamegraph -F ${c#sonde}"; bpf=$(bpf_share "${c#sonde}") ;;
		perf*) name="perf record -g -F ${c#perf} + perf script" ;;
		esac
		if [ "$c" != untraced ]; then
			ovh=$(ratios "$c" | quartiles)
			mn=$(LC_ALL=C awk -v a="$(min_of "$c")" -v b="$base_min" 'BEGIN { printf "%+.2f%%", (a / b - 1) * 100 }')
		fi
		echo "| $name | $(col "$c" 2) | $ovh | $mn | $(col "$c" 3)/$(col "$c" 4) | $(col "$c" 5) | $(col "$c" 6) | $bpf | $idle |"
	done
} | tee bench/results/flamegraph.md
