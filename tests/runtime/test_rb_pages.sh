#!/usr/bin/env bash
# BPFTRACE_PERF_RB_PAGES sizes sonde's event ring buffer: bpftrace maps that
# many pages per CPU, sonde one BPF ring buffer holding as much (pages x page
# size x possible CPUs, rounded up to a power of two). The size is read back
# from the map's fdinfo while sonde runs (system() runs under sonde).
# bpftrace's messages for bad values are in tests/compat (env_rb_pages_*).
set -u
fail=0
possible=$(cat /sys/devices/system/cpu/possible) # e.g. 0-1
ncpu=$(( ${possible##*-} + 1 ))
page=$(getconf PAGESIZE)
prog='BEGIN { system("grep -h -A3 \"^map_type:.27$\" /proc/$PPID/fdinfo/* 2>/dev/null | sed -n \"s/^max_entries:.//p\""); exit(); }'
for pages in 1 8 64; do
	want=4096
	while [ $want -lt $((pages * page * ncpu)) ]; do want=$((want * 2)); done
	got=$(BPFTRACE_PERF_RB_PAGES=$pages timeout 30 "$SONDE" --unsafe -q -e "$prog" 2>&1 | tr -d '[:space:]')
	[ "$got" == "$want" ] || { echo "BPFTRACE_PERF_RB_PAGES=$pages: ring buffer of '$got' bytes, want $want"; fail=1; }
done
exit $fail
