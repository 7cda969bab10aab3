#!/usr/bin/env bash
# sonde trace vs strace vs perf trace on dd bs=1 count=500k (about 1M
# syscalls), all syscalls traced and printed to a file; -c against the
# kernel's floor: empty BPF programs (a pid test) on the raw tracepoints
# sys_enter/sys_exit, what sonde trace -c attaches to.  Pinned (taskset -c 0:
# tracer and dd share a CPU) and unpinned, as ptrace tracers behave very
# differently.  Two times per run: dd's own ("copied, X s": what tracing
# costs the traced program) and the wall time of the whole command (start-up,
# and the output written after dd is done).  sonde and the floor: median of
# RUNS runs; strace and perf trace (tens of seconds each): one run.
# Between runs the background detachers of the previous sonde are waited
# for, so that no run pays for the one before.
# Usage: bench/trace.sh [COUNT] [RUNS]   (as root)
# Writes the table to stdout and to bench/results/trace.md.
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
SONDE=${SONDE:-$PWD/sonde}
COUNT=${1:-500k}
RUNS=${2:-5}
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
dd_cmd=(dd if=/dev/zero of=/dev/null bs=1 count=$COUNT)
floor_prog='rawtracepoint:sys_enter /pid == cpid/ {} rawtracepoint:sys_exit /pid == cpid/ {}'
start=$(date +%s)

settle() {
	local i
	for i in $(seq 100); do pgrep -x sonde >/dev/null || return 0; sleep 0.05; done
}

# one run of "$@": appends wall seconds to $out/$tag.wall and dd's own
# seconds to $out/$tag.dd
run1() {
	local tag=$1 t0 t1
	shift
	settle
	t0=${EPOCHREALTIME/[.,]/}
	LC_ALL=C "$@" >/dev/null 2>"$out/err"
	t1=${EPOCHREALTIME/[.,]/}
	awk -v d=$((t1 - t0)) 'BEGIN { printf "%.6f\n", d / 1e6 }' >>"$out/$tag.wall"
	sed -n 's/.*copied, \([0-9.e+-]*\) s,.*/\1/p' "$out/err" >>"$out/$tag.dd"
}

report=$out/report.md
{
	echo "# sonde trace vs strace vs perf trace"
	echo
	echo "- command: \`bench/trace.sh $COUNT $RUNS\` (as root), sonde at $(git rev-parse --short HEAD 2>/dev/null)"
	echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); kernel $(uname -r), $(nproc) CPUs"
	echo "- load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "- workload: \`${dd_cmd[*]}\` (one read and one write per byte)"
	echo "- sonde and floor: median of $RUNS runs; strace and perf trace: one run"
	echo
} >"$report"
for mode in pinned unpinned; do
	pin=()
	[ $mode = pinned ] && pin=(taskset -c 0)
	rm -f "$out"/*.wall "$out"/*.dd
	for ((i = 0; i < RUNS; i++)); do
		run1 base "${pin[@]}" "${dd_cmd[@]}"
		run1 trace "${pin[@]}" "$SONDE" trace -o "$out/sonde.txt" -- "${dd_cmd[@]}"
		run1 count "${pin[@]}" "$SONDE" trace -c -o "$out/sonde_c.txt" -- "${dd_cmd[@]}"
		run1 floor "${pin[@]}" "$SONDE" -q -e "$floor_prog" -c "${dd_cmd[*]}"
		run1 accept "${pin[@]}" "$SONDE" trace -e trace=accept -o "$out/sonde_a.txt" -- "${dd_cmd[@]}"
	done
	lines=$(wc -l <"$out/sonde.txt")
	lost=$(sed -n 's/^sonde trace: lost \([0-9]*\) events.*/\1/p' "$out/sonde.txt")
	lost=${lost:-0}
	st=n/a pt=n/a std=n/a ptd=n/a
	if need strace 2>/dev/null; then
		run1 strace "${pin[@]}" strace -o "$out/strace.txt" "${dd_cmd[@]}"
		st=$(median "$out/strace.wall") std=$(median "$out/strace.dd")
	fi
	if need perf 2>/dev/null; then
		run1 perf "${pin[@]}" perf trace -o "$out/perf.txt" -- "${dd_cmd[@]}"
		pt=$(median "$out/perf.wall") ptd=$(median "$out/perf.dd")
	fi
	for t in base trace count floor accept; do
		eval "${t}_w=$(median "$out/$t.wall") ${t}_d=$(median "$out/$t.dd")"
	done
	# shellcheck disable=SC2154
	{
		echo "## $mode"
		echo
		echo "| run | dd's own time (s) | ratio | wall (s) | ratio | target |"
		echo "|---|---:|---:|---:|---:|---|"
		echo "| untraced | $base_d | 1.00 | $base_w | 1.00 | |"
		echo "| sonde trace -o FILE ($lines lines, $lost lost) | $trace_d | $(ratio "$trace_d" "$base_d") x untraced | $trace_w | $(ratio "$trace_w" "$base_w") x untraced | <= 3 x untraced, 0 lost |"
		echo "| strace -o FILE | $std | $(ratio "$std" "$base_d") x untraced | $st | $(ratio "$st" "$base_w") x untraced | |"
		echo "| perf trace -o FILE | $ptd | $(ratio "$ptd" "$base_d") x untraced | $pt | $(ratio "$pt" "$base_w") x untraced | |"
		echo "| sonde trace -e trace=accept (a call dd never makes) | $accept_d | $(ratio "$accept_d" "$base_d") x untraced | $accept_w | $(ratio "$accept_w" "$base_w") x untraced | |"
		echo "| floor: empty programs on sys_enter/sys_exit | $floor_d | $(ratio "$floor_d" "$base_d") x untraced | $floor_w | $(ratio "$floor_w" "$base_w") x untraced | |"
		echo "| sonde trace -c | $count_d | $(ratio "$count_d" "$floor_d") x floor | $count_w | $(ratio "$count_w" "$floor_w") x floor | <= 1.15 x floor |"
		echo
	} >>"$report"
done
echo "took $(($(date +%s) - start)) s; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$report"
mkdir -p bench/results
cp "$report" bench/results/trace.md
cat "$report"
