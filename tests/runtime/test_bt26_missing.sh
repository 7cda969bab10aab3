#!/usr/bin/env bash
# bpftrace 0.26's missing_probes (the default generation): an attach point
# whose provider finds no such probe (a tracepoint, a uprobe function) stops
# the run in 0.26's words ("No matches for TYPE ARGS."), or with
# missing_probes = warn is skipped with a warning (and a probe left with
# none is removed with another), or with ignore silently; nothing left at
# all is "No probes to attach".  Under SONDE_COMPAT=0.17 a uprobe function
# missing from its file is dropped silently as bpftrace 0.17 drops it.
SONDE=${SONDE:-./sonde}
fail=0
bad() { printf '%s\n' "$*"; fail=1; }
unset SONDE_COMPAT BPFTRACE_MISSING_PROBES
tick='interval:ms:10 { printf("tick\n"); exit(); }'

out=$("$SONDE" -e 't:syscalls:nonsense { exit(); }' 2>&1); rc=$?
[ $rc != 0 ] && grep -q '^stdin:1:1-20: ERROR: No matches for tracepoint syscalls:nonsense\.$' <<<"$out" ||
	bad "default (error) ($rc): $out"
out=$("$SONDE" -e "uprobe:/bin/sh:sonde_no_such_fn { } $tick" 2>&1); rc=$?
[ $rc != 0 ] && grep -q 'ERROR: No matches for uprobe /bin/sh:sonde_no_such_fn\.' <<<"$out" ||
	bad "uprobe, default ($rc): $out"

out=$("$SONDE" -e "config = { missing_probes = \"warn\" } t:syscalls:nonsense { } $tick" 2>&1); rc=$?
[ $rc = 0 ] && grep -q '^tick$' <<<"$out" &&
	grep -q 'WARNING: No matches for tracepoint syscalls:nonsense\. Skipping\.' <<<"$out" &&
	grep -q 'WARNING: Probe has no valid attach points\. It is being removed' <<<"$out" ||
	bad "warn ($rc): $out"
# one of two attach points missing: the probe stays, no removal warning
out=$("$SONDE" -e "config = { missing_probes = warn } t:syscalls:nope,$tick" 2>&1); rc=$?
[ $rc = 0 ] && grep -q '^tick$' <<<"$out" && grep -q 'Skipping' <<<"$out" &&
	! grep -q 'no valid attach points' <<<"$out" || bad "warn, one of two ($rc): $out"

out=$(BPFTRACE_MISSING_PROBES=ignore "$SONDE" -e "t:syscalls:nonsense { } uprobe:/bin/sh:sonde_no_such_fn { } $tick" 2>&1); rc=$?
[ $rc = 0 ] && grep -q '^tick$' <<<"$out" && ! grep -q 'WARNING\|ERROR' <<<"$out" ||
	bad "ignore ($rc): $out"
out=$("$SONDE" -e 'config = { missing_probes = ignore } t:syscalls:nonsense { }' 2>&1); rc=$?
[ $rc != 0 ] && grep -q '^No probes to attach$' <<<"$out" || bad "ignore, nothing left ($rc): $out"

# other errors are not missing probes
out=$("$SONDE" -e 'config = { missing_probes = ignore } t:nonsense { }' 2>&1); rc=$?
[ $rc != 0 ] && grep -q 'requires 2 arguments' <<<"$out" || bad "a malformed attach point ($rc): $out"

# 0.17 drops a missing uprobe function, as bpftrace 0.17
out=$(SONDE_COMPAT=0.17 "$SONDE" -e "uprobe:/bin/sh:sonde_no_such_fn { } $tick" 2>&1); rc=$?
[ $rc = 0 ] && grep -q '^tick$' <<<"$out" || bad "0.17 ($rc): $out"
exit $fail
