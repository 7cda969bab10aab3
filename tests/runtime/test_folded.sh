#!/usr/bin/env bash
# -f folded: maps keyed by stacks print as "frame;...;frame COUNT" lines,
# outermost frame first, comm first, kernel frames with "_[k]", and
# nothing else on stdout.  flame_target spends ~90% in hot_function and
# ~10% in cold_function, both called from main.
SONDE=${SONDE:-./sonde}
fail() { printf '%s\n--- output\n%s\n' "$1" "$out"; exit 1; }

out=$("$SONDE" -f folded -e 'profile:hz:199 /pid == cpid/ { @[comm, kstack, ustack] = count(); }' \
	-c 'build/progs/flame_target 1' 2>/dev/null)
grep -qvE '^[^ ]+( [^ ]+)* [0-9]+$' <<<"$out" && fail "a line is not 'stack count'"
hot=$(grep -E '^flame_target;.*main;hot_function [0-9]+$' <<<"$out" | awk '{s += $NF} END {print s + 0}')
cold=$(grep -E '^flame_target;.*main;cold_function [0-9]+$' <<<"$out" | awk '{s += $NF} END {print s + 0}')
[ "$hot" -gt 0 ] || fail "no flame_target;...;main;hot_function line"
[ "$hot" -gt "$cold" ] || fail "hot_function ($hot) not above cold_function ($cold)"

# kernel frames: outermost (the syscall entry) first, each marked _[k]
out=$("$SONDE" -f folded -e 'tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { @[kstack] = count(); @n = count(); }' \
	-c 'build/progs/getppid_loop 7' 2>/dev/null)
line=$(grep -E '_\[k\] 7$' <<<"$out") || fail "no kernel stack line counting 7 calls"
grep -qE '^entry_SYSCALL_64[a-z_]*_\[k\];(.*;)?do_syscall_64_\[k\];' <<<"$line" ||
	fail "kernel frames not outermost first"
[ "$(tr ';' '\n' <<<"${line% *}" | grep -vc '_\[k\]$')" = 0 ] || fail "a kernel frame without _[k]"
# a map not keyed by stacks still prints as text
grep -qx '@n: 7' <<<"$out" || fail "@n not printed as text"
exit 0
