#!/usr/bin/env bash
# Start-up cost of kernel types: sonde -e of a script touching curtask->comm
# (reads /sys/kernel/btf/vmlinux, converts the types it reaches) against one
# touching no kernel type.  Median wall time of N runs each; target: gap <= 30 ms.
set -u
cd "$(dirname "$0")/.."
SONDE=${SONDE:-./sonde}
N=${1:-20}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
run() {
	for _ in $(seq "$N"); do
		s=$(date +%s%N); "$SONDE" -q -e "$1" >/dev/null 2>&1; e=$(date +%s%N)
		echo $(((e - s) / 1000))
	done | median
}
plain=$(run 'BEGIN { printf("%s\n", comm); exit(); }')
btf=$(run 'BEGIN { printf("%s\n", curtask->comm); exit(); }')
gap=$(awk -v a="$btf" -v b="$plain" 'BEGIN { printf "%.1f", (a - b) / 1000 }')
printf 'no kernel type: %.1f ms\ncurtask->comm:  %.1f ms\ngap: %s ms (target <= 30): %s\n' \
	"$(awk -v a="$plain" 'BEGIN{print a/1000}')" "$(awk -v a="$btf" 'BEGIN{print a/1000}')" "$gap" \
	"$(awk -v g="$gap" 'BEGIN { print (g <= 30) ? "PASS" : "MISS" }')"
