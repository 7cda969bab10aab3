#!/usr/bin/env bash
# bpftrace 0.26's `args` as a value: the record of the probe's arguments in
# print(), a variable, a map or a tuple (a tracepoint's fields here; the
# uprobe DWARF cases are bpftrace's own tests: tests/bt26, builtin.args in
# uprobe print, record.record printing complex args).  0.17 refuses it.
SONDE=${SONDE:-./sonde}
fail=0
unset SONDE_COMPAT
bad() { printf '%s\n' "$*"; fail=1; }
prog='tracepoint:syscalls:sys_enter_fchdir /pid == cpid/ { print(args); $a = args; @m = (args, 1);
  printf("fd %d %d\n", $a.fd, @m.0.fd); exit(); }'
out=$(timeout 10 "$SONDE" -e "$prog" -c 'python3 -c "import os; os.fchdir(0)"' 2>&1)
grep -qx '{ .__syscall_nr = [0-9]*, .fd = 0 }' <<<"$out" || bad "print(args): $out"
grep -qx 'fd 0 0' <<<"$out" || bad "args in a variable and a tuple: $out"
grep -qx '@m: ({ .__syscall_nr = [0-9]*, .fd = 0 }, 1)' <<<"$out" || bad "args in a map: $out"
out=$(SONDE_COMPAT=0.17 timeout 10 "$SONDE" -e 'tracepoint:syscalls:sys_enter_fchdir { print(args); }' 2>&1)
grep -q 'ERROR: print() cannot print this value' <<<"$out" || bad "0.17: $out"
exit $fail
