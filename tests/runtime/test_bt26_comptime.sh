#!/usr/bin/env bash
# bpftrace 0.26's compile-time questions, run: typeof() of a string or a
# record declares a variable of that type (zero until set); `if comptime`
# keeps only the branch its condition picks, so a macro can choose by its
# argument's type (is_str(), typeinfo()) and the other branch may hold
# what this argument could not compile; typeinfo() prints as a record;
# a condition not known while compiling is an error with a caret.
SONDE=${SONDE:-./sonde}
fail=0
bad() { printf '%s\n' "$*"; fail=1; }
unset SONDE_COMPAT

# a tracepoint's string through typeof(comm) and a comptime branch on it
out=$("$SONDE" -c 'cat /dev/null' -e 'tracepoint:syscalls:sys_enter_openat /pid == cpid/ {
	let $c: typeof(comm);
	$c = comm;
	if comptime (typeinfo($c).base_ty == "string") { @opens[$c] = count(); }
	else { @opens[0] = count(); } }' 2>&1)
grep -Eq '^@opens\[cat\]: [0-9]+$' <<<"$out" || bad "typeof(comm), comptime on typeinfo: $out"

out=$("$SONDE" -e 'macro show(x) { if comptime is_str(x) { printf("s:%s\n", x); } else { printf("i:%d\n", x * 2); } }
begin { show("hi"); show(21); $r = (a = 1, b = "xy"); let $z: typeof($r); print($z);
	print(typeinfo($r)); exit(); }' 2>&1)
want='s:hi
i:42
{ .a = 0, .b =  }
{ .btf_id = 0, .base_ty = record, .full_ty = record { .a = int64, .b = string[3] } }'
[ "$(grep -v '^Attached' <<<"$out" | sed '/^$/d')" = "$want" ] || bad "macro by type, typeof a record: $out"

out=$("$SONDE" -e 'macro pick(x) { if comptime is_str(x) { x } else { x + 1 } }
begin { @s = pick("str"); @n = pick(1); exit(); }' 2>&1)
grep -q '^@s: str$' <<<"$out" && grep -q '^@n: 2$' <<<"$out" || bad "a valued comptime if: $out"

out=$("$SONDE" -e 'begin { $a = nsecs; if comptime ($a > 1) { exit(); } }' 2>&1); rc=$?
want='stdin:1:37-38: ERROR: Unable to resolve comptime expression
begin { $a = nsecs; if comptime ($a > 1) { exit(); } }
                                    ^'
[ $rc = 1 ] && [ "$out" = "$want" ] || bad "comptime of a run-time value ($rc): $out"

out=$(SONDE_COMPAT=0.17 "$SONDE" -e 'BEGIN { if comptime (1) { exit(); } }' 2>&1); rc=$?
[ $rc = 1 ] || bad "0.17 has no comptime ($rc): $out"
exit $fail
