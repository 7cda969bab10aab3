#!/usr/bin/env bash
# bpftrace 0.26's signal_thread(SIG): bpf_send_signal_thread to the traced
# thread (here -c's sleep, which SIGTERM ends long before its 20 s); unsafe
# (refused without --unsafe) and refused where no task is traced (begin);
# unknown under SONDE_COMPAT=0.17.
SONDE=${SONDE:-./sonde}
fail=0
start=$(date +%s)
out=$(timeout 40 "$SONDE" --unsafe -c 'sleep 20' -e 'tracepoint:syscalls:sys_enter_clock_nanosleep,
	tracepoint:syscalls:sys_enter_nanosleep /pid == cpid/ { signal_thread("SIGTERM"); printf("sent\n"); }' 2>&1)
took=$(($(date +%s) - start))
grep -q '^sent$' <<<"$out" && [ $took -lt 15 ] || { printf 'signal_thread (%ss):\n%s\n' "$took" "$out"; fail=1; }
out=$("$SONDE" -e 'tracepoint:syscalls:sys_enter_nanosleep { signal_thread(15); }' 2>&1)
grep -q 'signal_thread() is an unsafe function being used in safe mode' <<<"$out" || { printf 'safe mode:\n%s\n' "$out"; fail=1; }
out=$("$SONDE" --unsafe -e 'begin { signal_thread(15); }' 2>&1)
grep -q 'signal_thread can not be used with "BEGIN" probes' <<<"$out" || { printf 'begin:\n%s\n' "$out"; fail=1; }
out=$("$SONDE" --unsafe -e 'tracepoint:syscalls:sys_enter_nanosleep { signal_thread("NOPE"); }' 2>&1)
grep -q 'NOPE is not a valid signal' <<<"$out" || { printf 'bad name:\n%s\n' "$out"; fail=1; }
out=$(SONDE_COMPAT=0.17 "$SONDE" --unsafe -e 'tracepoint:syscalls:sys_enter_nanosleep { signal_thread(15); }' 2>&1)
grep -q 'Unknown function: signal_thread' <<<"$out" || { printf '0.17:\n%s\n' "$out"; fail=1; }
exit $fail
