#!/usr/bin/env bash
# locals.NAME/args.NAME against perf probe: the same variables at the same
# line probes of locals_target (-O0: the stack; -O2: registers, location
# lists), perf's values read back from the kernel's trace buffer, sonde's
# printed by the program; both must be the same lines.  No event is left.
cd "$(dirname "$0")/../.."
set -f
command -v perf >/dev/null || { echo "perf (linux-perf) is not installed"; exit 77; }
SONDE=${SONDE:-$PWD/sonde}
# uprobe event names are global: runs from other checkouts take turns
exec 9>/tmp/sonde-test-locals-perf.lock
flock -w 300 9 || { echo "another run holds /tmp/sonde-test-locals-perf.lock"; exit 1; }
T=$(sed -n 's/^tracefs \([^ ]*\) tracefs.*/\1/p' /proc/mounts | head -1)
T=${T:-/sys/kernel/tracing}
BID=$(mktemp -d)
perf() { command perf --buildid-dir "$BID" "$@"; }
cleanup() {
	[ -d "$T/events/pvtest" ] && echo 0 > "$T/events/pvtest/enable" 2>/dev/null
	perf probe -q -d 'pvtest:*' >/dev/null 2>&1
}
trap 'cleanup; rm -rf "$BID"' EXIT
cleanup
fail=0
for o in O0 O2; do
	bin=$PWD/build/progs/locals_target_$o
	perf probe -q -x "$bin" -a "pvtest:pv_f4=fold:4 i acc n weight=r->weight" -a "pvtest:pv_f5=fold:5 i d" \
		>/dev/null 2>&1 || { echo "perf probe -a failed ($o)"; fail=1; continue; }
	echo > "$T/trace"
	echo 1 > "$T/events/pvtest/enable"
	"$bin" 5
	echo 0 > "$T/events/pvtest/enable"
	want=$(sed -n 's/.*: pv_\(f[45]\): ([^)]*) /\1 /p' "$T/trace")
	perf probe -q -d 'pvtest:*' >/dev/null 2>&1
	got=$("$SONDE" -c "$bin 5" -e "uprobe:$bin:fold:4 { printf(\"f4 i=%d acc=%d n=%d weight=%d\n\",
		locals.i, locals.acc, args.n, args.r->weight); }
		uprobe:$bin:fold:5 { printf(\"f5 i=%d d=%d\n\", locals.i, locals.d); }" 2>&1 | grep '^f[45] ')
	if [ -z "$want" ] || [ "$got" != "$want" ]; then
		echo "$o: perf's trace buffer vs sonde"; diff <(echo "$want") <(echo "$got"); fail=1
	fi
done
exit $fail
