#!/usr/bin/env bash
# kill -9 while attached leaves no BPF program or link of that sonde behind.
# The programs and links are this sonde's own (their ids read from its
# /proc/PID/fdinfo while attached), so other tracers running on the
# machine at the same time do not change the result.
SONDE=${SONDE:-./sonde}
BPFTOOL=$(command -v bpftool || echo /usr/sbin/bpftool)
[ -x "$BPFTOOL" ] || { echo "bpftool not found"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ids() { # pid kind: the ids of the pid's open BPF objects of that kind
	grep -hE "^$2_id:" /proc/$1/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -u
}
alive() { # kind id...: the ids that still exist
	local kind=$1 id; shift
	for id; do "$BPFTOOL" "$kind" show id "$id" >/dev/null 2>&1 && echo "$id"; done
}
"$SONDE" -e 'tracepoint:syscalls:sys_enter_getppid { @ = count(); } tracepoint:sched:sched_switch { @s = count(); }' >"$tmp/out" 2>&1 &
pid=$!
for i in $(seq 100); do grep -q Attaching "$tmp/out" && break; sleep 0.1; done
grep -q Attaching "$tmp/out" || { echo "sonde did not attach"; cat "$tmp/out"; kill -9 $pid; exit 1; }
progs=$(ids $pid prog); links=$(ids $pid link)
[ -n "$progs" ] && [ -n "$links" ] ||
	{ echo "no program or link open while attached: progs '$progs', links '$links'"; kill -9 $pid; exit 1; }
kill -9 $pid; wait $pid 2>/dev/null
# program teardown is asynchronous (RCU): give it up to 10 s
for i in $(seq 100); do
	[ -z "$(alive prog $progs)$(alive link $links)" ] && break; sleep 0.1
done
left=$(alive prog $progs | tr '\n' ' '); [ -z "$left" ] || { echo "programs left: $left"; exit 1; }
left=$(alive link $links | tr '\n' ' '); [ -z "$left" ] || { echo "links left: $left"; exit 1; }
exit 0
