#!/usr/bin/env bash
# hardware:EVENT[:COUNT]: bpftrace's names and aliases, counts as 1e6, errors
# for an unknown event or a bad count.  Where the machine has no hardware
# PMU (perf itself reports the counter <not supported>), each event is one
# error line before anything attaches; where it has one, the probe counts.
# Also `sonde --info` names every kernel probe type with a yes or a reason.
SONDE=${SONDE:-./sonde}
fail=0
. "$(dirname "$0")/lib.sh"
check "unknown event" "stdin:1:1-19: ERROR: bogus is not a hardware probe (sonde -l 'hardware:*' lists them)
hardware:bogus:100 {}
^~~~~~~~~~~~~~~~~~" -e 'hardware:bogus:100 {}'
check "bad count" "stdin:1:1-12: ERROR: hardware event count must be a positive integer (or 1e6), got '1x'
h:cycles:1x {}
^~~~~~~~~~~" -e 'h:cycles:1x {}'

if perf stat -x, -e cycles true 2>&1 | grep -q 'not supported'; then
	for ev in cpu-cycles cycles instructions cache-references cache-misses branch-instructions \
		branches branch-misses bus-cycles frontend-stalls backend-stalls ref-cycles; do
		got=$("$SONDE" -e "hardware:$ev:1e6 { @ = count(); }" 2>&1 | head -1)
		want="stdin:1:1-$((${#ev} + 14)): ERROR: hardware:$ev: this machine has no hardware PMU (as in most VMs), so hardware counters cannot be read (perf_event_open of a hardware counter: No such file or directory); software events and profile: still work"
		[ "$got" == "$want" ] || { printf 'no PMU, %s:\n%s\n' "$ev" "$got"; fail=1; }
	done
	"$SONDE" --info | grep -q '^  hardware: no (perf_event_open: No such file or directory; no hardware PMU' ||
		{ echo "--info does not say hardware: no"; fail=1; }
else
	got=$("$SONDE" -e 'hardware:instructions:1e5 { @ = count(); } interval:ms:300 { exit(); }' 2>&1)
	n=$(sed -n 's/^@: //p' <<<"$got")
	[ "${n:-0}" -gt 0 ] || { printf 'with a PMU, no instructions counted:\n%s\n' "$got"; fail=1; }
fi

info=$("$SONDE" --info)
for what in kprobe 'kprobe_multi (one link for a kprobe wildcard)' uprobe tracepoint hardware 'fentry/fexit (kfunc/kretfunc)' \
	'iterators (iter:task...)'; do
	grep -qE "^  $(sed 's/[()/.]/\\&/g' <<<"$what"): (yes|no \(.+\))$" <<<"$info" ||
		{ echo "--info has no yes or reason for $what"; fail=1; }
done
exit $fail
