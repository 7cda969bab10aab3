#!/usr/bin/env bash
# Overhead of `sonde flamegraph` on a CPU-bound program, at 99 and 999 Hz,
# beside `perf record -g` at the same frequencies.  The program is
# build/progs/flame_target --loops N: a fixed amount of work whose own CPU
# time (it prints it) is the measure: tool start-up and post-processing are
# not in it, nor time spent waiting for a CPU on this shared machine, while
# the sampling interrupts taken on its CPU are (no IRQ time accounting).
# It is pinned to CPU 1 (taskset) in every case.  Rounds interleave the
# five cases (untraced, sonde 99, sonde 999, perf 99, perf 999) so that the
# machine's drift hits all of them; the minimum (other tenants only ever
# add time, so the fastest round is the closest to the tool's own cost) and
# the median of RUNS rounds.  Also the median wall time of the whole
# command: sonde flamegraph writing its SVG, perf record followed by
# `perf script` (the input of flame graph scripts such as
# stackcollapse-perf.pl).
# Usage: bench/flamegraph.sh [LOOPS] [RUNS]   (as root; make build/progs/flame_target)
# Writes the table to stdout and to bench/results/flamegraph.md.
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
SONDE=${SONDE:-$PWD/sonde}
LOOPS=${1:-3000}
RUNS=${2:-5}
prog=(taskset -c 1 build/progs/flame_target --loops "$LOOPS")
[ -x build/progs/flame_target ] || make --no-print-directory build/progs/flame_target >/dev/null
need perf || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cases=(untraced sonde99 sonde999 perf99 perf999)

# one case once: appends the program's own seconds to $tmp/CASE.own and the
# whole command's wall seconds to $tmp/CASE.wall
run_case() {
	local c=$1 t0 t1 own
	t0=$EPOCHREALTIME
	case $c in
	untraced) own=$("${prog[@]}") ;;
	sonde*) own=$("$SONDE" flamegraph -F "${c#sonde}" -o "$tmp/fg.svg" -- "${prog[@]}" 2>/dev/null) ;;
	perf*)
		own=$(perf record -q -F "${c#perf}" -g -o "$tmp/perf.data" -- "${prog[@]}" 2>/dev/null)
		perf script -i "$tmp/perf.data" >"$tmp/perf.txt" 2>/dev/null ;;
	esac
	t1=$EPOCHREALTIME
	echo "$own" >>"$tmp/$c.own"
	LC_ALL=C awk -v a="${t0/,/.}" -v b="${t1/,/.}" 'BEGIN { printf "%.3f\n", b - a }' >>"$tmp/$c.wall"
}

start=$(date -u '+%Y-%m-%d %H:%M UTC')
for r in $(seq "$RUNS"); do
	for c in "${cases[@]}"; do run_case "$c"; done
done
minimum() { LC_ALL=C sort -g "$1" | head -n 1; }
base=$(minimum "$tmp/untraced.own")
ratio() { LC_ALL=C awk -v a="$1" -v b="$base" 'BEGIN { printf "%+.2f%%", (a / b - 1) * 100 }'; }
{
	echo "# sonde flamegraph overhead"
	echo
	echo "\`bench/flamegraph.sh $LOOPS $RUNS\`, $start, $(uname -r), $(nproc) CPUs (a shared, noisy VM)."
	echo "The program's own CPU time (fixed work, pinned to CPU 1; sampling interrupts included, waiting"
	echo "for a CPU not) over $RUNS interleaved rounds: the"
	echo "minimum (other tenants only add time) and the median; overhead is min against untraced min."
	echo "Wall (median): the whole command (sonde: sampling and the SVG; perf: record, then"
	echo "\`perf script\`, the input of the flame graph scripts)."
	echo
	echo "| case | own time min (s) | overhead | own time median (s) | wall (s) |"
	echo "| --- | ---: | ---: | ---: | ---: |"
	for c in "${cases[@]}"; do
		own=$(minimum "$tmp/$c.own")
		name=$c
		case $c in
		sonde*) name="sonde flamegraph -F ${c#sonde}" ;;
		perf*) name="perf record -g -F ${c#perf} + perf script" ;;
		esac
		echo "| $name | $own | $([ "$c" = untraced ] && echo - || ratio "$own") | $(median "$tmp/$c.own") | $(median "$tmp/$c.wall") |"
	done
} | tee bench/results/flamegraph.md
