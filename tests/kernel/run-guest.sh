#!/bin/sh
# Runs in the guest (busybox sh, as root): every cases/NAME.bt against
# NAME.expect (exact output; NAME.args: extra arguments as shell words,
# NAME.filter: a sed -E script applied first), then every test_*.sh
# (exit 0 pass, 77 skip, else fail).  One "KTEST pass|fail|skip NAME" each.
cd "$(dirname "$0")"
report() { # status name [details file]; the guest's uptime at the end
	echo "KTEST $1 $2 ($(cut -d' ' -f1 /proc/uptime) s)"
	[ "$1" = pass ] || { [ -n "${3:-}" ] && sed 's/^/  /' "$3" | head -40; }
}
selected() { [ -z "${ONLY:-}" ] || echo "$1" | grep -qE "$ONLY"; }
# these tests check bpftrace 0.17's output and behaviour (Attaching N
# probes..., a kprobe on a missing function...), as tests/run.sh's own do
export SONDE_COMPAT=0.17

for bt in cases/*.bt; do
	[ -f "$bt" ] || continue
	name=$(basename "$bt" .bt)
	selected "$name" || continue
	set --
	[ -f "cases/$name.args" ] && eval "set -- $(cat "cases/$name.args")"
	timeout 60 "$SONDE" "$@" "$bt" > /tmp/got 2>&1
	[ -f "cases/$name.filter" ] && sed -E -f "cases/$name.filter" /tmp/got > /tmp/got.f && mv /tmp/got.f /tmp/got
	if cmp -s "cases/$name.expect" /tmp/got; then report pass "$name"
	else diff "cases/$name.expect" /tmp/got > /tmp/diff; report fail "$name" /tmp/diff; fi
done
for t in test_*.sh; do
	[ -f "$t" ] || continue
	name=${t%.sh}
	selected "$name" || continue
	# a test may say how long it may take: "# timeout: N" (s)
	limit=$(sed -n 's/^# timeout: \([0-9]*\)$/\1/p' "$t")
	timeout "${limit:-120}" sh "$t" > /tmp/out 2>&1; rc=$?
	if [ $rc = 0 ]; then report pass "$name"; grep '^note:' /tmp/out | sed 's/^/  /'
	elif [ $rc = 77 ]; then report skip "$name" /tmp/out
	else echo "exit status $rc" >> /tmp/out; report fail "$name" /tmp/out; fi
done
if [ "${BENCH:-0}" = 1 ] && [ -f /sonde/bench/kprobe_guest.sh ]; then
	bash /sonde/bench/kprobe_guest.sh
fi
