#!/usr/bin/env bash
# bpftrace 0.26's exit(code): sonde's exit status is the code (END still
# runs, maps still print); exit() is 0; under SONDE_COMPAT=0.17 exit()
# takes no argument, as 0.17's.
SONDE=${SONDE:-./sonde}
fail=0
out=$("$SONDE" -e 'begin { @n = 1; exit(69); } end { printf("end\n"); }' 2>/dev/null)
rc=$?
[ $rc = 69 ] || { echo "exit(69): status $rc"; fail=1; }
grep -q '^end$' <<<"$out" && grep -q '^@n: 1$' <<<"$out" || { printf 'exit(69) output:\n%s\n' "$out"; fail=1; }
"$SONDE" -e 'interval:ms:10 { exit(3); }' >/dev/null 2>&1
rc=$?
[ $rc = 3 ] || { echo "exit(3) in interval: status $rc"; fail=1; }
"$SONDE" -e 'begin { exit(); }' >/dev/null 2>&1 || { echo "exit(): status $?"; fail=1; }
out=$(SONDE_COMPAT=0.17 "$SONDE" -e 'BEGIN { exit(1); }' 2>&1)
grep -q 'exit() requires no arguments (1 provided)' <<<"$out" || { printf '0.17 exit(1):\n%s\n' "$out"; fail=1; }
exit $fail
