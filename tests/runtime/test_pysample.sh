#!/usr/bin/env bash
# Python stack sampling keeps every sample: pyflame's program (profile:hz:99,
# @[pystack] = count()) on a CPU-bound CPython 3.11 process, with a plain
# counter in the same probe and the process's own run time
# (task->se.sum_exec_runtime) at its first and last sample.  Every sample
# the counter saw must be in the stacks map, and the samples must cover the
# run time between them at 99 Hz (both are the target's own CPU time, so the
# ratio holds on a loaded machine; a wall-clock window would not).  Then
# with maps too small (BPFTRACE_MAX_MAP_KEYS=1) the samples that found no
# room are reported as lost, and kept + lost is every sample.
SONDE=${SONDE:-./sonde}
PY=/usr/bin/python3.11
[ -x $PY ] || { echo "no $PY"; exit 77; }
T=$PWD/tests/python
fail=0
$PY $T/spin.py 120 & pid=$!
trap 'kill $pid 2>/dev/null' EXIT
# pid, [env]: pyflame's program with a counter; stops after 150 samples
sample() {
	env $2 timeout 120 "$SONDE" -q -p $1 -e "profile:hz:99 /pid == $1/ {
	@n = count(); @c++; @[pystack] = count();
	@lo = min(curtask->se.sum_exec_runtime); @hi = max(curtask->se.sum_exec_runtime); }
interval:ms:100 /@c >= 150/ { exit(); }" 2>&1
}
val() { sed -n "s/^@$1: //p" <<<"$out"; }
kept() { awk '/^\]: [0-9]+$/ { s += $2 } END { print s + 0 }' <<<"$out"; }
# bpftrace 0.17's words, else 0.26's (the default)
lost() { sed -n -e 's/^sonde: lost \([0-9]*\) aggregation update.*/\1/p' \
	-e "s/^WARNING: Map full; can't update element (\([0-9]*\) updates lost.*/\1/p" <<<"$out"; }

out=$(sample $pid)
n=$(val n) lo=$(val lo) hi=$(val hi) k=$(kept)
if [ -z "$n" ] || [ -z "$lo" ] || [ -z "$hi" ] || [ "$n" -lt 150 ]; then
	printf 'no samples\n--- output\n%s\n' "$out"; fail=1
else
	[ "$k" = "$n" ] && [ -z "$(lost)" ] ||
		{ printf 'stacks kept %s of %s samples\n%s\n' "$k" "$n" "$(grep '^sonde:' <<<"$out")"; fail=1; }
	# samples per 99 Hz period of the target's run time, in percent
	pct=$(( (n - 1) * 100 * 1000000000 / ((hi - lo) * 99) ))
	echo "pystack samples: $n over $(( (hi - lo) / 1000000 )) ms of the target's CPU time ($pct% of 99 Hz)"
	[ "$pct" -ge 60 ] || { echo "FAIL: $pct% of the target's on-CPU periods sampled"; fail=1; }
fi

# the limit by both generations' names: 0.17's BPFTRACE_MAP_KEYS_MAX (tests/run.sh
# runs this under SONDE_COMPAT=0.17) and 0.26's BPFTRACE_MAX_MAP_KEYS; each
# ignores the other's
out=$(sample $pid "BPFTRACE_MAP_KEYS_MAX=1 BPFTRACE_MAX_MAP_KEYS=1")
n=$(val n) k=$(kept) l=$(lost) keys=$(grep -c '^@\[$' <<<"$out")
[ -n "$n" ] && [ "$keys" = 1 ] && [ -n "$l" ] && [ $((k + l)) = "$n" ] ||
	{ printf 'a full stacks map: %s keys, %s kept, %s lost of %s\n--- output\n%s\n' "$keys" "$k" "$l" "$n" \
		"$(grep -v '^ *\[' <<<"$out")"; fail=1; }
exit $fail
