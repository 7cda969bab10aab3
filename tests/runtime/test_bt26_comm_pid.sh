#!/usr/bin/env bash
# bpftrace 0.26's comm(pid): the name of another process by its pid (here
# -c's sleep, its parent sonde, a shell's pid given as a literal); for a pid
# no task has, "N/A" and a warning at the call, as 0.26's stdlib macro;
# comm() is still the variable comm.  Unknown under SONDE_COMPAT=0.17.
SONDE=${SONDE:-./sonde}
fail=0
sleep 30 & other=$!
sleep 0.2
prog="tracepoint:syscalls:sys_enter_clock_nanosleep,tracepoint:syscalls:sys_enter_nanosleep /pid == cpid/ {
	printf(\"[%s] [%s] [%s] [%s] [%s]\\n\", comm(pid), comm(ppid), comm($other), comm(2147483647), comm());
	exit();
}"
out=$(timeout 40 "$SONDE" -c 'sleep 0.5' -e "$prog" 2>&1)
grep -q 'Linux 6.2 or later' <<<"$out" && { echo "SKIP: $out"; kill $other; exit 0; }
grep -q '^\[sleep\] \[sonde\] \[sleep\] \[N/A\] \[sleep\]$' <<<"$out" || { printf 'comm(pid):\n%s\n' "$out"; fail=1; }
grep -q '^stdin:2:[0-9]*-[0-9]*: WARNING: No such process (pid=2147483647)$' <<<"$out" ||
	{ printf 'comm(pid) warning:\n%s\n' "$out"; fail=1; }
kill $other 2>/dev/null; wait $other 2>/dev/null
out=$(SONDE_COMPAT=0.17 "$SONDE" -e 'BEGIN { print(comm(1)); }' 2>&1)
grep -q 'Unknown function: comm' <<<"$out" || { printf '0.17:\n%s\n' "$out"; fail=1; }
exit $fail
