#!/usr/bin/env bash
# sonde probe -a/-l/-d against perf probe: the same messages, exit status,
# uprobe_events lines and -l listing for each definition; then the events
# at work, read back from the kernel's trace buffer: a loop variable's
# successive values, a register local in -O2 code, a struct member and a
# string through a pointer, a global.  No event is left behind.
cd "$(dirname "$0")/../.."
set -f
command -v perf >/dev/null || { echo "perf (linux-perf) is not installed"; exit 77; }
SONDE=${SONDE:-$PWD/sonde}
# uprobe event names are global (perf checks a name in every group): runs of
# this test from other checkouts on the same machine take turns
exec 9>/tmp/sonde-test-probe-events.lock
flock -w 300 9 || { echo "another run holds /tmp/sonde-test-probe-events.lock"; exit 1; }
T=$(sed -n 's/^tracefs \([^ ]*\) tracefs.*/\1/p' /proc/mounts | head -1)
T=${T:-/sys/kernel/tracing}
O0=$PWD/build/progs/probe_target_O0 O2=$PWD/build/progs/probe_target_O2
cleanup() {
	for g in probe_probe_target_O0 probe_probe_target_O2 sondetest; do
		[ -d "$T/events/$g" ] && echo 0 > "$T/events/$g/enable" 2>/dev/null
		"$SONDE" probe -d "$g:*" >/dev/null 2>&1
	done
}
cleanup
fail=0
events() { grep -E ' (/[^ ]*probe_target_O[02]):' "$T/uprobe_events" | sort; }
# perf keeps what it probes in a build-id cache (a stripped copy would find
# its symbols there): a cache of its own, removed at the end
BID=$(mktemp -d)
perf() { command perf --buildid-dir "$BID" "$@"; }
trap 'cleanup; rm -rf "$BID"' EXIT
run() { # TOOL BIN DEF... -> output, rc, the events it made, its -l
	local tool=$1 bin=$2; shift 2
	local args=()
	for d in "$@"; do args+=(-a "$d"); done
	# the closing hint differs on purpose: sonde suggests its own command
	# (test_papercuts.sh checks it), perf its own
	$tool probe -x "$bin" "${args[@]}" 2>&1 |
		sed -E '/^You can now use it in /d; /^	(perf record -e |sonde -e )/d'
	echo "rc=${PIPESTATUS[0]}"
	events
	$tool probe -l 2>&1
	$tool probe -d 'probe_probe_target_O*:*' 2>&1 >/dev/null; echo "rc=$?"
	$tool probe -d 'sondetest:*' >/dev/null 2>&1
}
compare() {
	local a b
	a=$(run perf "$@"); b=$(run "$SONDE" "$@")
	if [ "$a" != "$b" ]; then
		echo "DIFF: $*"; diff <(echo "$a") <(echo "$b") | head -20; fail=1
	fi
}
compare "$O0" 'weigh it->weight scale it->label:string'
compare "$O0" 'main:5 $vars'
compare "$O0" 'main:5 $params'
compare "$O0" 'weigh%return $retval'
compare "$O0" 'open_named pathname:string flags:u16'
compare "$O0" 'weigh:3 it->dims[1] w'
compare "$O0" 'weigh+4'
compare "$O0" 'probe_target.c:30 buf:string'
compare "$O0" 'sondetest:ev=weigh scale' 'weigh:4 w'
compare "$O2" 'weigh:3 w'
compare "$O2" 'xx=weigh:4 w it'
compare "$O2" 'main:4 i'
compare "$O2" 'open_named $params'
# bad input: perf's messages, nothing left
compare "$O0" 'weigh:50'
compare "$O0" 'main:7'
compare "$O0" 'weigh nosuchvar'
compare "$O0" 'weigh it->nosuch'
compare "$O0" 'weigh scale->x'
compare "$O0" 'weigh it.id'
compare "$O0" 'weigh:1'
compare "$O0" 'nosuch'
compare "$O0" 'probe_target.c:29'
compare "$O0" 'weigh w' 'weigh:50' # the first event is removed again
a=$(perf probe -d 'nothing' 2>&1; echo "rc=$?"); b=$("$SONDE" probe -d 'nothing' 2>&1; echo "rc=$?")
[ "$a" == "$b" ] || { echo "DIFF: -d nothing"; diff <(echo "$a") <(echo "$b"); fail=1; }

# the events at work: the kernel's trace buffer shows what they fetched
"$SONDE" probe -x "$O0" -a 'sondetest:loop=main:5 i' -a 'sondetest:member=weigh it->weight it->label:string' \
	-a 'sondetest:path=open_named pathname:string flags' -a 'sondetest:global=weigh:4 calls:u32' >/dev/null 2>&1 ||
	{ echo "sonde probe -a failed"; exit 1; }
"$SONDE" probe -x "$O2" -a 'sondetest:reg3=weigh:3 w' -a 'sondetest:reg4=weigh:4 w' >/dev/null 2>&1 ||
	{ echo "sonde probe -a (O2) failed"; exit 1; }
echo > "$T/trace"
echo 1 > "$T/events/sondetest/enable"
"$O0" 6 >/dev/null; "$O2" 4 >/dev/null
echo 0 > "$T/events/sondetest/enable"
got=$(sed -n 's/.*: \(loop\|member\|path\|global\|reg3\|reg4\): ([^)]*)/\1/p' "$T/trace")
want='loop i=0
member weight=7 label="apple"
global calls_u32=1
loop i=1
member weight=7 label="apple"
global calls_u32=2
loop i=2
member weight=7 label="apple"
global calls_u32=3
loop i=3
member weight=7 label="apple"
global calls_u32=4
loop i=4
member weight=7 label="apple"
global calls_u32=5
loop i=5
member weight=7 label="apple"
global calls_u32=6
path pathname_string="/tmp/probe_target.txt" flags=3
reg3 w=7
reg4 w=7
reg3 w=14
reg4 w=14
reg3 w=21
reg4 w=21
reg3 w=28
reg4 w=28'
if [ "$got" != "$want" ]; then
	echo "trace buffer:"; diff <(echo "$want") <(echo "$got"); fail=1
fi
# sonde programs on the same events (tracepoint:GROUP:EVENT): a uprobe at
# the event's place, each field computed from its fetch argument; the same
# values as the kernel's record, printed as its print fmt prints them.  The
# strings are left out: probe_target never touches their pages before the
# probes fire, and BPF reads user memory without faulting pages in (the
# kernel's own fetch may); test_uprobe_event_tp.sh compares strings.
got=$( (timeout 30 "$SONDE" -c "$O0 6" -e 'tracepoint:sondetest:loop { printf("loop i=%d\n", args->i); }
	tracepoint:sondetest:member { printf("member weight=%d label=\"%s\"\n", args->weight, args.label); }
	tracepoint:sondetest:global { printf("global calls_u32=%u\n", args.calls_u32); }
	tracepoint:sondetest:path { printf("path pathname_string=\"%s\" flags=%d\n", args.pathname_string, args.flags); }'
	timeout 30 "$SONDE" -c "$O2 4" -e 'tracepoint:sondetest:reg* { printf("%s w=%d\n", probe == "tracepoint:sondetest:reg3" ? "reg3" : "reg4", args.w); }'
	) 2>&1 | grep -E '^(loop|member|global|path|reg3|reg4) ')
nostr() { sed -E 's/ [a-z_]+="[^"]*"//'; }
if [ "$(nostr <<<"$got")" != "$(nostr <<<"$want")" ]; then
	echo "sonde on the uprobe events:"; diff <(nostr <<<"$want") <(nostr <<<"$got"); fail=1
fi
cleanup
if grep -q 'probe_target_O' "$T/uprobe_events"; then echo "events left behind"; fail=1; fi
exit $fail
