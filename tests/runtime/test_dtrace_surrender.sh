#!/usr/bin/env bash
# sched:::surrender: a CPU told by another to schedule again (the
# reschedule interrupt).  A sleeper pinned to CPU 1 is woken 100 times from
# CPU 0 (each wakeup of a task on another, idle CPU is such an interrupt,
# unless that CPU polls instead of halting); args[0]/args[1] are the
# interrupted thread's lwpsinfo_t/psinfo_t.  Needs two CPUs and x86's
# irq_vectors tracepoints.
set -u
cd "$(dirname "$0")"
SONDE=${SONDE:-$PWD/../../sonde}
[ "$(nproc)" -ge 2 ] || { echo "one CPU: no CPU to tell another"; exit 77; }
"$SONDE" dtrace -l -n sched:::surrender 2>/dev/null | grep -q surrender ||
	{ echo "no sched:::surrender here (irq_vectors:reschedule_entry)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/pingpong.sh" <<'SH'
mkfifo "$1/ping" "$1/pong"
taskset -c 1 sh -c 'for i in $(seq 100); do read x <"$0/ping"; echo >"$0/pong"; done' "$1" &
taskset -c 0 sh -c 'for i in $(seq 100); do echo >"$0/ping"; read x <"$0/pong"; done' "$1"
wait
SH
out=$(timeout 100 "$SONDE" dtrace -q -c "sh $tmp/pingpong.sh $tmp" -n '
sched:::surrender
{
	n++;
	same = same || (args[0]->pr_lwpid == tid && args[1]->pr_pid == pid &&
	    args[0]->pr_onpro == cpu);
}
END
{
	printf("%d %d\n", n > 0, same);
}' 2>&1)
[ "$out" == "1 1" ] || { echo "expected '1 1' (fired, args of the interrupted thread), got:"; echo "$out" | head; exit 1; }
exit 0
