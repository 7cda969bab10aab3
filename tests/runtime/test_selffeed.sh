#!/usr/bin/env bash
# Tracing write() while printing one line per write must not feed on
# sonde's own output writes: dd's 20000 one-byte writes give >= 20000 lines
# of "1", and the run ends promptly when dd exits.
SONDE=${SONDE:-./sonde}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
N=20000
start=$(date +%s)
timeout 60 "$SONDE" -o "$tmp/out" -c "/usr/bin/dd if=/dev/zero of=/dev/null bs=1 count=$N status=none" \
	-e 'tracepoint:syscalls:sys_enter_write { printf("%d\n", args->fd); }' >"$tmp/stdout" 2>&1
rc=$?
secs=$(( $(date +%s) - start ))
ones=$(grep -cx 1 "$tmp/out")
fail=0
[ $rc = 0 ] || { echo "exit status $rc"; fail=1; }
[ $secs -lt 20 ] || { echo "took $secs s"; fail=1; }
[ "$ones" -ge $N ] || { echo "only $ones lines of 1 (want >= $N)"; fail=1; }
# to stdout redirected into a file as well
timeout 60 "$SONDE" -c "/usr/bin/dd if=/dev/zero of=/dev/null bs=1 count=$N status=none" \
	-e 'tracepoint:syscalls:sys_enter_write { printf("%d\n", args->fd); }' >"$tmp/out2" 2>&1
ones=$(grep -cx 1 "$tmp/out2")
[ "$ones" -ge $N ] || { echo "stdout: only $ones lines of 1"; fail=1; }
[ $(( $(date +%s) - start )) -lt 40 ] || { echo "too slow"; fail=1; }
grep -q "Lost" "$tmp/stdout" "$tmp/out2" && { echo "events were lost"; fail=1; }
exit $fail
