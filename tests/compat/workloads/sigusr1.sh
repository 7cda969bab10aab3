#!/bin/sh
# -c workload for the sigusr1_* cases: 3 writes of 4321 bytes, SIGUSR1 to
# the tracer (its parent), then wait until the tracer's map dump is in the
# output file (stdout, shared with the tracer), then 5 more such writes.
# Waiting on the output, not on time, keeps the dump's counts exact.
/usr/bin/dd if=/dev/zero of=/dev/null bs=4321 count=3 status=none
kill -USR1 "$PPID"
i=0
until grep -q '@w' "/proc/$$/fd/1" 2>/dev/null; do
	i=$((i + 1))
	[ $i -gt 400 ] && break # 20 s: the case then fails on its counts
	sleep 0.05
done
/usr/bin/dd if=/dev/zero of=/dev/null bs=4321 count=5 status=none
