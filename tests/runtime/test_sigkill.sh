#!/usr/bin/env bash
# kill -9 while attached leaves no sonde BPF program or link behind.
SONDE=${SONDE:-./sonde}
BPFTOOL=$(command -v bpftool || echo /usr/sbin/bpftool)
[ -x "$BPFTOOL" ] || { echo "bpftool not found"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# sonde's own programs ("sondetrace" are sonde trace's: an earlier test's may
# still be detaching in the background)
progs() { "$BPFTOOL" prog show 2>/dev/null | grep -cE 'name sonde( |$)'; }
links() { "$BPFTOOL" link show 2>/dev/null | grep -c '^[0-9]*:'; }
for i in $(seq 100); do pgrep -x sonde >/dev/null || break; sleep 0.1; done
p0=$(progs); l0=$(links)
"$SONDE" -e 'tracepoint:syscalls:sys_enter_getppid { @ = count(); } tracepoint:sched:sched_switch { @s = count(); }' >"$tmp/out" 2>&1 &
pid=$!
for i in $(seq 100); do grep -q Attaching "$tmp/out" && break; sleep 0.1; done
grep -q Attaching "$tmp/out" || { echo "sonde did not attach"; cat "$tmp/out"; kill -9 $pid; exit 1; }
p1=$(progs)
[ "$p1" -gt "$p0" ] || { echo "no sonde program visible while attached ($p0 -> $p1)"; kill -9 $pid; exit 1; }
kill -9 $pid; wait $pid 2>/dev/null
# program teardown is asynchronous (RCU): give it a moment
for i in $(seq 50); do [ "$(progs)" -le "$p0" ] && [ "$(links)" -le "$l0" ] && break; sleep 0.1; done
p2=$(progs); l2=$(links)
[ "$p2" -le "$p0" ] || { echo "programs left: before=$p0 after=$p2"; exit 1; }
[ "$l2" -le "$l0" ] || { echo "links left: before=$l0 after=$l2"; exit 1; }
exit 0
