#!/usr/bin/env bash
# sonde trace vs strace vs perf trace on dd bs=1 count=500k (about 1M
# syscalls), all syscalls traced and printed to a file; -c against the
# kernel's floor (empty BPF programs on raw_syscalls enter/exit).
# Pinned (taskset -c 0: tracer and dd share a CPU) and unpinned.
# Usage: bench/trace.sh [COUNT]   (as root)
set -u
cd "$(dirname "$0")/.."
SONDE=${SONDE:-$PWD/sonde}
COUNT=${1:-500k}
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
dd_cmd=(dd if=/dev/zero of=/dev/null bs=1 count=$COUNT)
# wall time of the traced command, from the tool's start to its end
t() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc -l; }
ratio() { echo "scale=2; $1 / $2" | bc -l; }
for mode in pinned unpinned; do
	pin=(); [ $mode = pinned ] && pin=(taskset -c 0)
	base=$(t "${pin[@]}" "${dd_cmd[@]}")
	s=$(t "${pin[@]}" "$SONDE" trace -o "$out/sonde.txt" -- "${dd_cmd[@]}")
	lines=$(wc -l < "$out/sonde.txt"); lost=$(grep -c 'lost' "$out/sonde.txt")
	sc=$(t "${pin[@]}" "$SONDE" trace -c -o "$out/sonde_c.txt" -- "${dd_cmd[@]}")
	floor=$(t "${pin[@]}" "$SONDE" -q -e 'tracepoint:raw_syscalls:sys_enter /pid == cpid/ {} tracepoint:raw_syscalls:sys_exit /pid == cpid/ {}' -c "${dd_cmd[*]}")
	st=$(command -v strace >/dev/null && t "${pin[@]}" strace -o "$out/strace.txt" "${dd_cmd[@]}" || echo 0)
	pt=$(command -v perf >/dev/null && t "${pin[@]}" perf trace -o "$out/perf.txt" -- "${dd_cmd[@]}" || echo 0)
	printf '%-9s untraced %.3fs | sonde trace %.3fs (%sx, %s lines, %s lost-lines) | sonde -c %.3fs (%sx; floor %.3fs, %sx of floor) | strace %.3fs (%sx) | perf trace %.3fs (%sx)\n' \
		$mode "$base" "$s" "$(ratio $s $base)" "$lines" "$lost" "$sc" "$(ratio $sc $base)" "$floor" \
		"$(ratio $sc $floor)" "$st" "$(ratio $st $base)" "$pt" "$(ratio $pt $base)"
done
