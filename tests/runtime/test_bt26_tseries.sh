#!/usr/bin/env bash
# bpftrace 0.26's tseries(): the last value of each interval on the real
# clock, printed as a graph with one row per interval; traced probes do not
# run before BEGIN has (BEGIN sets @n to 100 first) nor after exit()
# (one firing of a 1 ms interval probe, however loaded the machine).
SONDE=${SONDE:-./sonde}
fail=0
out=$("$SONDE" -e 'begin { @n = 100; } interval:ms:1 { @n++; @t = tseries(@n, 1s, 3); exit(); }' 2>/dev/null)
grep -q '^@n: 101$' <<<"$out" || { printf 'gate (want @n: 101):\n%s\n' "$out"; fail=1; }
grep -q '^@t:$' <<<"$out" && grep -q '^hh:mm:ss |_*|$' <<<"$out" &&
	grep -Eq '^[0-9]{2}:[0-9]{2}:[0-9]{2} +\|? +\* +\|? 101$' <<<"$out" || { printf 'tseries graph:\n%s\n' "$out"; fail=1; }
out=$("$SONDE" -f json -e 'begin { @t = tseries(5, 100ms, 2, "sum"); @t = tseries(6, 100ms, 2, "sum"); exit(); }' 2>/dev/null)
grep -Eq '"type": "tseries", "data": \{"@t": \[\{"interval_start": "[0-9-]+ [0-9:]+\.[0-9]{9}", "value": 11\}\]' <<<"$out" ||
	{ printf 'tseries json:\n%s\n' "$out"; fail=1; }
out=$("$SONDE" -e 'begin { @t = tseries(5, 100ms, 2, "median"); }' 2>&1)
grep -q 'ERROR: tseries() expects one of the following aggregation functions: avg, max, min, sum ("median" provided)' <<<"$out" ||
	{ printf 'tseries bad agg:\n%s\n' "$out"; fail=1; }
exit $fail
