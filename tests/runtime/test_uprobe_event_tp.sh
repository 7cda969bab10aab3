#!/usr/bin/env bash
# tracepoint:GROUP:EVENT on uprobe events made by perf probe -x and by sonde
# probe -a, in locals_target -O0 (the stack) and -O2 (registers): sonde's
# args.FIELD values are the kernel's, field for field, for the same run of
# the program (the kernel's record read back from the trace buffer, printed
# by sonde as the event's print fmt prints it).  Integers, strings through
# two pointers, a global (@+offset), a return value; bad input; no event left.
cd "$(dirname "$0")/../.."
set -f
command -v perf >/dev/null || { echo "perf (linux-perf) is not installed"; exit 77; }
SONDE=${SONDE:-$PWD/sonde}
exec 9>/tmp/sonde-test-uprobe-event-tp.lock
flock -w 300 9 || { echo "another run holds /tmp/sonde-test-uprobe-event-tp.lock"; exit 1; }
T=$(sed -n 's/^tracefs \([^ ]*\) tracefs.*/\1/p' /proc/mounts | head -1)
T=${T:-/sys/kernel/tracing}
BID=$(mktemp -d)
perf() { command perf --buildid-dir "$BID" "$@"; }
cleanup() {
	[ -d "$T/events/pvtp" ] && echo 0 > "$T/events/pvtp/enable" 2>/dev/null
	"$SONDE" probe -d 'pvtp:*' >/dev/null 2>&1
}
trap 'cleanup; rm -rf "$BID"' EXIT
cleanup
fail=0
prog() { # the event's print fmt; cnt only when the event has it
	echo 'tracepoint:pvtp:f4 { printf("f4: i=%d acc=%d n=%d w=%d nm=\"%s\" lab=\"%s\"'"${1:+ cnt=%u}"'\n",
		args.i, args.acc, args.n, args.w, args.nm, args.lab'"${1:+, args.cnt}"'); }
	tracepoint:pvtp:fr__return { printf("fr__return: arg1=%d\n", args.arg1); }'
}
for tool in perf "$SONDE"; do
	for o in O0 O2; do
		bin=$PWD/build/progs/locals_target_$o
		# a global only from sonde: perf 6.1 writes @hits, which uprobe events refuse
		cnt=' cnt=hits:u32'; [ "$tool" = perf ] && cnt=
		$tool probe -x "$bin" -a "pvtp:f4=fold:4 i acc n w=r->weight nm=r->name:string lab=r->label:string$cnt" \
			-a 'pvtp:fr=fold%return $retval:s64' >/dev/null 2>&1 || { echo "$tool probe -a failed ($o)"; fail=1; continue; }
		echo > "$T/trace"
		echo 1 > "$T/events/pvtp/enable"
		"$bin" 4
		echo 0 > "$T/events/pvtp/enable"
		want=$(sed -n 's/.*: \(f4\|fr__return\): ([^)]*) /\1: /p' "$T/trace")
		got=$(timeout 30 "$SONDE" -c "$bin 4" -e "$(prog $cnt)" 2>&1 | grep -E '^f(4|r__return): ')
		if [ "$(wc -l <<<"$want")" != 5 ] || [ "$got" != "$want" ]; then
			echo "$(basename "$tool") $o: the kernel's records vs sonde's args"
			diff <(echo "$want") <(echo "$got"); fail=1
		fi
		cleanup
	done
done
# a field the event does not have: the tracepoint message, nothing attached
"$SONDE" probe -x "$PWD/build/progs/locals_target_O0" -a 'pvtp:f4=fold:4 i' >/dev/null 2>&1
out=$(timeout 20 "$SONDE" -e 'tracepoint:pvtp:f4 { print(args.nope); }' 2>&1); rc=$?
if [ $rc != 1 ] || ! grep -q "does not contain a field named 'nope'" <<<"$out"; then
	echo "a missing field (rc $rc): $out"; fail=1
fi
cleanup
if grep -q 'pvtp/' "$T/uprobe_events"; then echo "events left behind"; fail=1; fi
exit $fail
