#!/usr/bin/env bash
# Literals and small functions of bpftrace 0.26 on the real kernel: a
# positional parameter that is a number is the literal a function wants
# (lhist's bounds, buf's length, ustack's depth, strncmp's length; 0.17
# too), `$1` as a whole attach point, strlen(), `username == username`,
# sizeof/offsetof of a bare BTF name (uint64_t, qspinlock); a tracepoint's
# `const char *const *` field (execve's argv) indexed to the strings (0.17
# too).
SONDE=${SONDE:-./sonde}
P=$PWD/build/progs
fail=0
bad() { printf '%s\n' "$*"; fail=1; }
unset SONDE_COMPAT

out=$("$SONDE" -e '$1 { printf("hello world\n"); exit(); }' i:ms:1 2>&1)
grep -qx 'hello world' <<<"$out" || bad "\$1 as the attach point: $out"
out=$(SONDE_COMPAT=0.17 "$SONDE" -e '$1 { exit(); }' i:ms:1 2>&1)
grep -q 'ERROR: expected an attach point' <<<"$out" || bad "0.17 has no \$1 attach point: $out"

out=$("$SONDE" -e 'begin { @ = lhist(5, $1, $2, $3); @b = buf("hello", $4); print(strncmp("abc", "abd", $5)); exit(); }' \
	0 100 10 3 2 2>&1)
grep -q '^\[0, 10) *1 |@*|$' <<<"$out" && grep -qx '@b: hel' <<<"$out" && grep -qx 0 <<<"$out" ||
	bad "lhist, buf, strncmp with parameters: $out"
out=$(SONDE_COMPAT=0.17 "$SONDE" -e 'BEGIN { @ = lhist(5, $1, $2, $3); @b = buf("hello", $4); exit(); }' \
	0 100 10 3 2>&1)
grep -q '^\[0, 10) *1 |@*|$' <<<"$out" && grep -qx '@b: hel' <<<"$out" || bad "0.17 too: $out"
# ustack($1): one frame, where ustack() has more
out=$("$SONDE" -e "uprobe:$P/uprobe_target:leaf { printf(\"%s\n---\n%s\n\", ustack(), ustack(\$1)); exit(); }" 1 \
	-c "$P/uprobe_target 2 200" 2>&1)
n_all=$(sed -n '/^---$/q;/leaf+/,$p' <<<"$out" | grep -c '+')
n_one=$(sed -n '/^---$/,$p' <<<"$out" | grep -c '+')
[ "$n_one" = 1 ] && [ "$n_all" -gt 1 ] || bad "ustack(\$1) of 1 frame ($n_all/$n_one): $out"

out=$("$SONDE" -e 'begin { $s = "abcdef"; printf("%d %d %d\n", strlen("hi"), strlen($s), strlen("")); exit(); }' 2>&1)
grep -qx '2 6 0' <<<"$out" || bad "strlen: $out"
out=$("$SONDE" -e 'begin { if (__builtin_username == username() && username != username) { } if (username == username) { printf("SUCCESS %s\n", username); } exit(); }' 2>&1)
grep -qx "SUCCESS $(id -un)" <<<"$out" || bad "username == username: $out"

out=$("$SONDE" -e 'begin { printf("%d %d %d\n", sizeof(uint64_t), offsetof(qspinlock, tail), offsetof(struct qspinlock, tail)); exit(); }' 2>&1)
read -r a b c <<<"$(grep -E '^[0-9]+ [0-9]+ [0-9]+$' <<<"$out")"
[ "$a" = 8 ] && [ -n "$b" ] && [ "$b" = "$c" ] || bad "sizeof/offsetof of bare BTF names: $out"

for gen in 0.26 0.17; do
	out=$(SONDE_COMPAT=$gen "$SONDE" -c '/bin/echo zzarg1 zzarg2' -e 'tracepoint:syscalls:sys_enter_execve /pid == cpid/ {
		printf("<%s %s %s>\n", str(args->argv[0]), str(args->argv[1]), str(args->argv[2])); }' 2>&1)
	grep -qx '</bin/echo zzarg1 zzarg2>' <<<"$out" || bad "$gen: argv[i] of execve: $out"
done

[ $fail = 0 ] && echo "test_bt26_literals: ok"
exit $fail
