#!/usr/bin/env bash
# bpftrace 0.26's stack modes on the real kernel (build/progs/uprobe_target's
# leaf): raw (the addresses in hex, one a line, no indent) from the
# stack_mode config and from BPFTRACE_STACK_MODE, a call's own mode winning
# over both; build_id (the file's build id and the offset in it: leaf's own
# offset for the first frame); kstack's fallback to raw under build_id (a
# warning) and its error when it names build_id.
SONDE=${SONDE:-./sonde}
P=$PWD/build/progs
fail=0
bad() { printf '%s\n%s\n' "$1" "$2"; fail=1; }
run() { "$SONDE" "$@" -c "$P/uprobe_target 2 200" 2>&1; }
leaf=$(nm "$P/uprobe_target" | awk '$3 == "leaf" { print $1 }' | sed 's/^0*//')

out=$(run -e "config = { stack_mode=raw } uprobe:$P/uprobe_target:leaf { @[ustack(2)] = count(); }")
grep -Eq '^@\[$' <<<"$out" && [ "$(grep -Ec '^[0-9a-f]{6,}$' <<<"$out")" = 2 ] || bad "config raw:" "$out"

out=$(BPFTRACE_STACK_MODE=raw run -e "uprobe:$P/uprobe_target:leaf { @r[ustack(1)] = count(); @p[ustack(perf, 1)] = count(); }")
grep -Eq '^[0-9a-f]{6,}$' <<<"$out" && grep -Eq "^	[0-9a-f]+ leaf\+0 \($P/uprobe_target\)$" <<<"$out" ||
	bad "env raw, perf named:" "$out"

out=$(run -e "uprobe:$P/uprobe_target:leaf { @[ustack(build_id, 2)] = count(); }")
id=$(readelf -n "$P/uprobe_target" | awk '/Build ID/ { print $3 }')
grep -q "^$id 0x$leaf$" <<<"$out" && [ "$(grep -c "^$id 0x" <<<"$out")" = 2 ] || bad "build_id ($id, leaf at 0x$leaf):" "$out"

out=$("$SONDE" -e 'config = { stack_mode=build_id } begin { @[kstack(2)] = 1; exit(); }' 2>&1)
grep -q "WARNING: 'build_id' stack mode can only be used for ustack. Falling back to 'raw' mode." <<<"$out" &&
	grep -Eq '^[0-9a-f]{16}$' <<<"$out" || bad "kstack under build_id:" "$out"
out=$("$SONDE" -e 'begin { @[kstack(build_id, 2)] = 1; exit(); }' 2>&1)
grep -q "^stdin:1:.*ERROR: 'build_id' stack mode can only be used for ustack$" <<<"$out" || bad "kstack(build_id):" "$out"
out=$("$SONDE" -e 'begin { @[ustack(fast)] = 1; exit(); }' 2>&1)
grep -q "ERROR: ustack(): unknown stack mode 'fast' (bpftrace, perf, raw or build_id)" <<<"$out" || bad "ustack(fast):" "$out"
exit $fail
