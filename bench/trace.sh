#!/usr/bin/env bash
# sonde trace vs strace vs perf trace on dd bs=1 count=500k (about 1M
# syscalls), all syscalls traced and printed to a file; -c against the
# kernel's floor: empty BPF programs on the raw tracepoints sys_enter/sys_exit
# (what sonde trace attaches to; the floor used for the ratios), and, for
# reference, on the perf-event tracepoints raw_syscalls:sys_enter/sys_exit.
# Pinned (taskset -c 0: tracer and dd share a CPU) and unpinned.
# Usage: bench/trace.sh [COUNT]   (as root)
set -u
cd "$(dirname "$0")/.."
SONDE=${SONDE:-$PWD/sonde}
COUNT=${1:-500k}
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
dd_cmd=(dd if=/dev/zero of=/dev/null bs=1 count=$COUNT)
# wall time of the traced command, from the tool's start to its end; dd's
# own time ("copied, X s" on its stderr) is left in $out/dd.err
t() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>"$out/dd.err"; e=$(date +%s.%N); echo "$e - $s" | bc -l; }
ddt() { grep -o 'copied, [0-9.e-]* s' "$out/dd.err" | awk '{printf "%.3f", $2}'; }
ratio() { echo "scale=2; $1 / $2" | bc -l; }
for mode in pinned unpinned; do
	pin=(); [ $mode = pinned ] && pin=(taskset -c 0)
	base=$(t "${pin[@]}" "${dd_cmd[@]}"); based=$(ddt)
	s=$(t "${pin[@]}" "$SONDE" trace -o "$out/sonde.txt" -- "${dd_cmd[@]}"); sd=$(ddt)
	lines=$(wc -l < "$out/sonde.txt")
	lost=$(sed -n 's/^sonde trace: lost \([0-9]*\) events.*/\1/p' "$out/sonde.txt"); lost=${lost:-0}
	sc=$(t "${pin[@]}" "$SONDE" trace -c -o "$out/sonde_c.txt" -- "${dd_cmd[@]}"); scd=$(ddt)
	floor=$(t "${pin[@]}" "$SONDE" -q -e 'rawtracepoint:sys_enter /pid == cpid/ {} rawtracepoint:sys_exit /pid == cpid/ {}' -c "${dd_cmd[*]}"); floord=$(ddt)
	tpfloor=$(t "${pin[@]}" "$SONDE" -q -e 'tracepoint:raw_syscalls:sys_enter /pid == cpid/ {} tracepoint:raw_syscalls:sys_exit /pid == cpid/ {}' -c "${dd_cmd[*]}"); tpfloord=$(ddt)
	st=$(command -v strace >/dev/null && t "${pin[@]}" strace -o "$out/strace.txt" "${dd_cmd[@]}" || echo 0)
	pt=$(command -v perf >/dev/null && t "${pin[@]}" perf trace -o "$out/perf.txt" -- "${dd_cmd[@]}" || echo 0)
	printf '%s (wall of the whole command; dd: dd'"'"'s own "copied" time)\n' $mode
	printf '  untraced     wall %.3fs  dd %.3fs\n' "$base" "$based"
	printf '  sonde trace  wall %.3fs (%sx)  dd %.3fs (%sx)  %s lines, %s lost\n' \
		"$s" "$(ratio $s $base)" "$sd" "$(ratio $sd $based)" "$lines" "$lost"
	printf '  sonde -c     wall %.3fs (%sx of floor)  dd %.3fs (%sx of floor)\n' \
		"$sc" "$(ratio $sc $floor)" "$scd" "$(ratio $scd $floord)"
	printf '  floor: empty BPF on raw tracepoints sys_enter/exit  wall %.3fs  dd %.3fs\n' "$floor" "$floord"
	printf '  (empty BPF on tracepoints raw_syscalls:sys_enter/exit  wall %.3fs  dd %.3fs)\n' "$tpfloor" "$tpfloord"
	printf '  strace       wall %.3fs (%sx)   perf trace wall %.3fs (%sx)\n' \
		"$st" "$(ratio $st $base)" "$pt" "$(ratio $pt $base)"
done
