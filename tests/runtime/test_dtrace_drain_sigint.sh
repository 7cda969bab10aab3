#!/usr/bin/env bash
# sonde dtrace: on Ctrl-C (SIGINT) the activity state turns draining before
# END runs, as dtrace_stop() does: END runs once and no traced probe's clause
# runs after it (tick-1ms fires while sonde waits 100 ms after END, the
# tests-only SONDE_TEST_LATE_END knob, and until it detaches).
set -u
cd "$(dirname "$0")"
SONDE=${SONDE:-$PWD/../../sonde}
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
SONDE_TEST_LATE_END=100 "$SONDE" dtrace -q -n '
BEGIN { printf("ready\n"); }
tick-1ms /ended/ { @late["ticks after END"] = count(); }
END { ended++; printf("END ran %d time(s)\n", ended); }' >"$out" 2>"$err" &
pid=$!
for _ in $(seq 300); do # BEGIN has run: the probes are attached
	grep -q ready "$out" && break
	sleep 0.1
done
grep -q ready "$out" || { echo "sonde never ran BEGIN"; cat "$err"; kill $pid; exit 1; }
kill -INT $pid
wait $pid
rc=$?
want=$'ready\nEND ran 1 time(s)\n\n' # dtrace's final newline
[ "$rc" == 0 ] || { echo "exit status $rc"; cat "$err"; exit 1; }
[ "$(cat "$out"; echo .)" == "$want." ] || { echo "got:"; cat "$out"; echo "expected:"; echo "$want"; exit 1; }
exit 0
