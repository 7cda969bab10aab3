#!/usr/bin/env bash
# A reader that cannot keep up (stdout is a pipe nobody reads for 2 s)
# makes the ring buffer overflow: sonde says "Lost N events" at exit (on
# its output, as bpftrace 0.17; json: a lost_events record), and
# the count is consistent: printed lines + lost = calls made.
SONDE=${SONDE:-./sonde}
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
N=2000000
cc -O1 -o "$tmp/gpp" tests/progs/getppid_loop.c || exit 77
"$SONDE" -c "$tmp/gpp $N" -e 'tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { printf("%d %d %d\n", pid, nsecs, cpu); }' \
	2>"$tmp/err" | (sleep 2; tee "$tmp/out" | grep -c '^[0-9]' >"$tmp/lines")
lost=$(sed -nE 's/^Lost ([0-9]+) events$/\1/p' "$tmp/out")
[ -n "$lost" ] || { echo "could not force lost events: $(cat "$tmp/err")"; exit 77; }
lines=$(cat "$tmp/lines")
[ $((lines + lost)) -eq $N ] || { echo "lines $lines + lost $lost != $N"; exit 1; }
# json: the same count as a record
"$SONDE" -f json -c "$tmp/gpp $N" -e 'tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { printf("%d %d %d\n", pid, nsecs, cpu); }' \
	2>"$tmp/err" | (sleep 2; tee "$tmp/jout" | grep -c '^{"type": "printf"' >"$tmp/lines")
lost=$(sed -nE 's/^\{"type": "lost_events", "data": \{"events": ([0-9]+)\}\}$/\1/p' "$tmp/jout")
# (a slower run may lose nothing: then every record must be there)
lost=${lost:-0}
lines=$(cat "$tmp/lines")
[ $((lines + lost)) -eq $N ] || { echo "json: lines $lines + lost $lost != $N"; exit 1; }
exit 0
