#!/usr/bin/env bash
# bpftrace 0.26's pid([curr_ns|init]) and tid([curr_ns|init]): sonde run as
# the first process of a new PID namespace is pid 1 there (curr_ns, the
# default, and the bare variables pid and tid as 0.26 has them) and another
# pid in the initial one (init, and the variable pid as 0.17 has it); in
# the initial namespace all are the same.
SONDE=${SONDE:-./sonde}
command -v unshare >/dev/null || { echo "SKIP: no unshare"; exit 0; }
fail=0
prog='begin { printf("%d %d %d %d %d\n", pid(curr_ns), pid(), tid(curr_ns), pid(init), tid(init)); exit(); }'
out=$(timeout 20 unshare --fork --pid --mount-proc "$SONDE" -e "$prog" 2>/dev/null)
read -r cur dflt tcur init tinit <<<"$out"
[ "$cur" = 1 ] && [ "$dflt" = 1 ] && [ "$tcur" = 1 ] || { echo "in a new namespace: '$out' (want 1 1 1 ...)"; fail=1; }
[ -n "$init" ] && [ "$init" != 1 ] && [ "$init" = "$tinit" ] || { echo "init ids in a new namespace: '$out'"; fail=1; }
out=$(timeout 20 unshare --fork --pid --mount-proc "$SONDE" -e 'begin { printf("%d %d\n", pid, tid); exit(); }' 2>/dev/null)
[ "$out" = "1 1" ] || { echo "bare pid, tid in a new namespace: '$out' (want 1 1)"; fail=1; }
out=$(SONDE_COMPAT=0.17 timeout 20 unshare --fork --pid --mount-proc "$SONDE" -e 'BEGIN { printf("%d %d\n", pid, tid); exit(); }' 2>/dev/null | grep '^[0-9]')
read -r a b <<<"$out"
[ -n "$a" ] && [ "$a" != 1 ] && [ "$a" = "$b" ] || { echo "0.17's pid, tid in a new namespace: '$out' (want the initial namespace's)"; fail=1; }
out=$(timeout 20 "$SONDE" -e 'begin { printf("%d %d %d\n", pid, pid(curr_ns), pid(init)); exit(); }' 2>/dev/null)
read -r a b c <<<"$out"
[ -n "$a" ] && [ "$a" = "$b" ] && [ "$b" = "$c" ] || { echo "initial namespace: '$out'"; fail=1; }
out=$(timeout 20 "$SONDE" -e 'begin { print(pid(nope)); }' 2>&1)
grep -q 'Invalid PID namespace mode: pid() takes curr_ns or init' <<<"$out" || { printf 'pid(nope):\n%s\n' "$out"; fail=1; }
exit $fail
