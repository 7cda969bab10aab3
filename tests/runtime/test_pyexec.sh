#!/usr/bin/env bash
# tools/pyexec.bt: the pid of a new python3 process, alone on its line, as
# soon as it execs (what a "start a profiler on every python3" loop reads).
SONDE=${SONDE:-./sonde}
py=/usr/bin/python3
[ -x $py ] || { echo "no $py"; exit 77; }
tmp=$(mktemp -d); trap 'kill $t 2>/dev/null; rm -rf "$tmp"' EXIT
"$SONDE" -q tools/pyexec.bt >"$tmp/out" 2>&1 & t=$!
# -q has no line that says the probe is attached, and start-up under load can
# take more than a second: a python process that does not see its pid is
# retried (each new one must be printed once the probe is in).
for try in $(seq 30); do
    # the python process checks that its own pid has already been printed
    $py -c '
import os, sys, time
for _ in range(10):
    if str(os.getpid()) in open(sys.argv[1]).read().split():
        sys.exit(0)
    time.sleep(0.1)
sys.exit(1)' "$tmp/out"; rc=$?
    [ $rc = 0 ] && break
done
kill -INT $t; wait $t
[ $rc = 0 ] || { echo "the python3 pid was not printed while it ran:"; cat "$tmp/out"; exit 1; }
grep -qvE '^([0-9]+)?$' "$tmp/out" && { echo "not only pids:"; cat "$tmp/out"; exit 1; }
exit 0
