#!/usr/bin/env bash
# bpftrace 0.26's output (the default generation), beside 0.17's
# (SONDE_COMPAT=0.17): "Attached N probes" on stderr once attached; a
# program of only BEGIN/END probes ends by itself after BEGIN; stats() as a
# record; json structs compact, json keys unspaced.  docs/bpftrace-0.26-output.md.
SONDE=${SONDE:-./sonde}
fail=0
unset SONDE_COMPAT
err=$(timeout 10 "$SONDE" -e 'BEGIN { @s = stats(1); @s = stats(2); @s = stats(3); }' 2>&1 >/dev/null)
rc=$?
[ $rc = 0 ] || { echo "begin-only program: status $rc (124: it did not end by itself)"; fail=1; }
[ "$err" = "Attached 1 probe" ] || { printf 'stderr:\n%s\n' "$err"; fail=1; }
out=$(timeout 10 "$SONDE" -e 'BEGIN { @s = stats(1); @s = stats(2); @s = stats(3); }' 2>/dev/null)
grep -qx '@s: { .count = 3, .average = 2, .total = 6 }' <<<"$out" || { printf 'stats:\n%s\n' "$out"; fail=1; }
out=$(timeout 10 "$SONDE" -q -f json -e 'BEGIN { @h = hist(5); }' 2>&1)
[ "$(grep -c . <<<"$out")" = 1 ] || { printf 'json: one line wanted:\n%s\n' "$out"; fail=1; }
# json keys are their text without spaces (bpftrace 0.26's json output)
out=$(timeout 10 "$SONDE" -q -f json -e 'BEGIN { @a[((1, 2), 3)] = 1; @b["x y"] = 2; }' 2>&1)
grep -qF '{"@a": {"(1,2),3": 1}}' <<<"$out" && grep -qF '{"@b": {"xy": 2}}' <<<"$out" ||
	{ printf 'json keys:\n%s\n' "$out"; fail=1; }
out=$(SONDE_COMPAT=0.17 timeout 10 "$SONDE" -q -f json -e 'BEGIN { @b["x y"] = 2; exit(); }' 2>&1)
grep -qF '{"@b": {"x y": 2}}' <<<"$out" || { printf '0.17 json keys:\n%s\n' "$out"; fail=1; }
# an interval probe keeps it running until exit()
out=$(timeout 10 "$SONDE" -e 'BEGIN { printf("b\n"); } interval:ms:100 { printf("i\n"); exit(); }' 2>&1)
grep -qx i <<<"$out" || { printf 'interval after BEGIN:\n%s\n' "$out"; fail=1; }
# 0.17: "Attaching 1 probe..." on the output, and a BEGIN-only program runs on
out=$(SONDE_COMPAT=0.17 timeout 2 "$SONDE" -e 'BEGIN { @x = 1; }' 2>/dev/null)
[ $? = 124 ] || { echo "0.17: a BEGIN-only program ended by itself"; fail=1; }
grep -qx 'Attaching 1 probe...' <<<"$out" || { printf '0.17 stdout:\n%s\n' "$out"; fail=1; }
exit $fail
