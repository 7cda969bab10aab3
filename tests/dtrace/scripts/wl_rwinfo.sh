#!/bin/sh
# rwinfo.d's workload: 3000 bytes into the fifo $1, which a cat (pid $2,
# not our child) reads and copies to /dev/null; then wait for that cat
head -c 3000 /dev/zero >"$1"
while kill -0 "$2" 2>/dev/null; do sleep 0.01; done
