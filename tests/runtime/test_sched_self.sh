#!/usr/bin/env bash
# The scheduler's events are seen in sonde's own process too, as bpftrace
# sees them: sched_switch runs in the task leaving the CPU, so leaving out
# sonde's switches also lost the task that came in after it.  That lost
# the only off-CPU sample of `sonde flamegraph --off-cpu -- sleep 0.3`
# once (its wake-up came right after the sampler left the CPU).  sonde is
# exec'd by bash, so $$ is sonde's pid; it waits 300 ms for interval, off
# the CPU.  System calls stay filtered (its own output's writes).
SONDE=${SONDE:-./sonde}
fail() { printf 'FAIL: %s\n--- output\n%s\n' "$1" "$out"; exit 1; }
out=$(bash -c 'exec "$0" -e "tracepoint:sched:sched_switch /pid == $$/ { @out = count(); }
	interval:ms:300 { exit(); }"' "$SONDE" 2>&1) || fail "sonde failed"
grep -qE '^@out: [1-9]' <<<"$out" || fail "sonde's own switch-outs are not seen"
out=$(bash -c 'exec "$0" -e "tracepoint:syscalls:sys_enter_write /pid == $$/ { @w = count(); }
	interval:ms:100 { printf(\"x\n\"); } interval:ms:350 { exit(); }"' "$SONDE" 2>&1) || fail "sonde failed"
grep -qE '^@w: [1-9]' <<<"$out" && fail "sonde's own writes are traced"
exit 0
