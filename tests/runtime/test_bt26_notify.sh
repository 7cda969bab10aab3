#!/usr/bin/env bash
# bpftrace's attach notification: with __BPFTRACE_NOTIFY_PROBES_ATTACHED in
# the environment, the line __BPFTRACE_NOTIFY_PROBES_ATTACHED once, on
# stdout, after attaching and before BEGIN's output (bpftrace's test engine
# starts its AFTER commands on it and compares what follows); none without
# the variable.  --verify-llvm-ir is accepted (under -v: sonde has no LLVM).
SONDE=${SONDE:-./sonde}
fail=0
prog='BEGIN { printf("begin\n"); } interval:ms:10 { printf("tick\n"); exit(); }'
out=$(__BPFTRACE_NOTIFY_PROBES_ATTACHED=1 "$SONDE" --verify-llvm-ir -e "$prog" 2>/dev/null)
n=$(grep -c '^__BPFTRACE_NOTIFY_PROBES_ATTACHED$' <<<"$out")
[ "$n" = 1 ] || { echo "notify: $n lines on stdout"; fail=1; }
first=$(grep -n -m1 '^__BPFTRACE_NOTIFY' <<<"$out" | cut -d: -f1)
begin=$(grep -n -m1 '^begin$' <<<"$out" | cut -d: -f1)
[ -n "$first" ] && [ -n "$begin" ] && [ "$first" -lt "$begin" ] ||
	{ printf 'notify after BEGIN output:\n%s\n' "$out"; fail=1; }
out=$(__BPFTRACE_NOTIFY_PROBES_ATTACHED=1 "$SONDE" -e "$prog" 2>&1 >/dev/null)
grep -q NOTIFY <<<"$out" && { echo "notify on stderr"; fail=1; }
out=$(env -u __BPFTRACE_NOTIFY_PROBES_ATTACHED "$SONDE" -e "$prog" 2>&1)
grep -q NOTIFY <<<"$out" && { echo "notify without the variable"; fail=1; }
# a run that fails to attach never says it attached
out=$(__BPFTRACE_NOTIFY_PROBES_ATTACHED=1 "$SONDE" -e 'uprobe:/nonexistent/bin:f { }' 2>&1)
grep -q NOTIFY <<<"$out" && { echo "notify after a failed attach"; fail=1; }
out=$("$SONDE" -v --verify-llvm-ir -e 'BEGIN { exit(); }' 2>&1)
grep -q 'verify-llvm-ir: sonde compiles to BPF without LLVM' <<<"$out" ||
	{ printf -- '-v --verify-llvm-ir:\n%s\n' "$out"; fail=1; }
exit $fail
