#!/usr/bin/env bash
# sonde probe against perf probe on a large binary (sonde itself, -O2, ~100
# CUs): -L and -V of every 5th function perf -F lists, one run of each tool
# over the whole list (wall time), plus the median of single -L/-V runs.
# Target: sonde at least as fast.  Usage: bench/probe.sh [BINARY]
set -u
cd "$(dirname "$0")/.."
SONDE=${SONDE:-$PWD/sonde}
BIN=$(realpath "${1:-$SONDE}")
BID=$(mktemp -d); trap 'rm -rf "$BID"' EXIT
perfp() { perf --buildid-dir "$BID" probe "$@"; }
mapfile -t funcs < <(perfp -x "$BIN" -F | awk 'NR % 5 == 0')
ms() { echo $((($2 - $1) / 1000000)); }
sweep() { # TOOL OPT
	local s e
	s=$(date +%s%N)
	for f in "${funcs[@]}"; do $1 -x "$BIN" "$2" "$f" >/dev/null 2>&1; done
	e=$(date +%s%N)
	ms "$s" "$e"
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
one() { # TOOL OPT FUNC: median of 11 runs, microseconds
	for _ in $(seq 11); do
		s=$(date +%s%N); $1 -x "$BIN" "$2" "$3" >/dev/null 2>&1; e=$(date +%s%N)
		echo $(((e - s) / 1000))
	done | median
}
sonde_probe() { "$SONDE" probe "$@"; }
echo "binary: $BIN ($(stat -c %s "$BIN") bytes), ${#funcs[@]} functions"
for opt in -L -V; do
	p=$(sweep perfp "$opt"); s=$(sweep sonde_probe "$opt")
	printf '%s sweep: perf %d ms, sonde %d ms, ratio perf/sonde %.2f\n' "$opt" "$p" "$s" \
		"$(awk -v a="$p" -v b="$s" 'BEGIN { print b ? a / b : 0 }')"
done
for opt in -L -V; do
	p=$(one perfp "$opt" main); s=$(one sonde_probe "$opt" main)
	printf '%s main (median of 11): perf %d us, sonde %d us\n' "$opt" "$p" "$s"
done
