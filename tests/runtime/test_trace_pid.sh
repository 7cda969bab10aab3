#!/usr/bin/env bash
# sonde trace -p: attach to running processes, show their calls, leave when
# they are gone.  Without -f/-T only the calls that need it are seen at
# their entry; a call in progress when tracing starts is then shown whole at
# its return.  With -T every entry is seen.  SIGKILL is never shown (strace
# never sees it taken): "+++ killed by SIGTERM +++" says what happened.
# strace's "Process N attached/detached" messages, in strace's words: the
# same as strace's own on the same processes (when strace is installed).
set -u
cd "$(dirname "$0")/../.."
SONDE=${SONDE:-$PWD/sonde}
[ "$(id -u)" = 0 ] || exit 77
tmp=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; for f in "$tmp"/out* "$tmp"/err*; do [ -f "$f" ] && { echo "--- $f:"; cat "$f"; }; done; exit 1; }

# sonde says "sonde trace: Process N attached" once its programs are
# attached: the test waits on that line and on the lines it expects, never
# on sleeps, so the machine's speed decides how long it takes, not whether
# it passes.  wait_until TRACER CMD...: until CMD succeeds, while the
# tracer (a background job) runs.
wait_until() {
	local t=$1; shift
	until "$@"; do
		kill -0 "$t" 2>/dev/null || { "$@" && return 0; fail "the tracer ended before: $*"; }
		sleep 0.05
	done
}
has_line() { grep -qE "$2" "$1" 2>/dev/null; }

# a process blocked in clock_nanosleep, then killed: the call in progress at
# attach shows; the process ended by itself, so it is never "detached"
sleep 300 & p=$!; pids+=($p)
timeout 120 "$SONDE" trace -p $p -o "$tmp/out1" 2>"$tmp/err1" & t=$!
wait_until $t has_line "$tmp/err1" "^sonde trace: Process $p attached$"
kill $p
wait $t; rc=$?
[ $rc = 0 ] || fail "sonde -p exit status $rc"
# (the time left, which the kernel writes when a signal interrupts the sleep)
grep -qE '^clock_nanosleep\(CLOCK_REALTIME, 0, \{tv_sec=300, tv_nsec=0\}, \{tv_sec=[0-9]+, tv_nsec=[0-9]+\}\) += \? ERESTART_RESTARTBLOCK' "$tmp/out1" ||
	fail "call in progress at attach not shown"
grep -qx '+++ killed by SIGTERM +++' "$tmp/out1" || fail "no killed line"
! grep -q SIGKILL "$tmp/out1" || fail "SIGKILL shown"
[ "$(cat "$tmp/err1")" = "sonde trace: Process $p attached" ] || fail "messages of a process that ended"

# a process making calls; -e, and -T (every entry seen); interrupted
bash -c 'while :; do echo tick >/dev/null; sleep 0.05; done' & p=$!; pids+=($p)
five_writes() { [ "$(grep -cE '^write\(1, "tick\\n", 5\) += 5' "$tmp/out2" 2>/dev/null)" -ge 5 ]; }
for opts in "" "-T"; do
	# shellcheck disable=SC2086
	timeout 120 "$SONDE" trace $opts -e trace=write -p $p -o "$tmp/out2" 2>"$tmp/err2" & t=$!
	wait_until $t has_line "$tmp/err2" "^sonde trace: Process $p attached$"
	wait_until $t five_writes
	kill -INT $t
	wait $t
	if [ "$opts" = -T ]; then
		grep -qE '^write\(1, "tick\\n", 5\) += 5 <0\.[0-9]{6}>$' "$tmp/out2" || fail "-T times"
	fi
	! grep -qvE '^write\(|^--- SIGCHLD|^$' "$tmp/out2" || fail "-p $opts: other lines"
	printf 'sonde trace: Process %s attached\nsonde trace: Process %s detached\n' $p $p > "$tmp/want"
	diff "$tmp/want" "$tmp/err2" || fail "-p $opts: attach/detach messages"
done
kill $p

# -f and threads: each thread's exit shows ("[pid N] +++ exited with 0 +++"
# as strace) and leaves the pid set, so sonde ends with the process; the
# thread is announced as strace announces it ("Process N attached")
py=$(command -v python3.11 || command -v python3)
py=$("$py" -c 'import sys; print(sys.executable)') # not a shim script that forks
timeout 60 "$SONDE" trace -f -e trace=exit,exit_group -- "$py" -c \
	'import threading; t = threading.Thread(target=lambda: None); t.start(); t.join()' 2>"$tmp/out3"
rc=$?
[ $rc = 0 ] || fail "-f with a thread: status $rc (124: sonde did not end)"
grep -qE '^\[pid +[0-9]+\] exit\(0\) += \?$' "$tmp/out3" || fail "thread exit call"
grep -qE '^\[pid +[0-9]+\] \+\+\+ exited with 0 \+\+\+$' "$tmp/out3" || fail "thread exit line"
tail -n 1 "$tmp/out3" | grep -qx '+++ exited with 0 +++' || fail "process exit line"
[ "$(grep -cE '^sonde trace: Process [0-9]+ attached$' "$tmp/out3")" = 1 ] || fail "-f: the thread's attach line"

command -v strace >/dev/null || { echo "ok (strace not installed: messages not compared)"; exit 0; }
# The messages against strace's on the same processes: the same lines but
# for the name before them.  interrupted TOOL ERR SIG ARGS...: TOOL (strace
# or sonde) traces with ARGS until attached, then gets SIG.
interrupted() {
	local tool=$1 err=$2 sig=$3; shift 3
	if [ "$tool" = strace ]; then
		timeout 120 strace "$@" 2>"$err" 8>&- &
	else
		timeout 120 "$SONDE" trace "$@" 2>"$err" 8>&- &
	fi
	local t=$!
	wait_until $t has_line "$err" ' attached'
	kill "-$sig" $t
	wait $t
}
same_msgs() {
	sed -E 's/^strace: /sonde trace: /' "$tmp/err.strace" > "$tmp/want"
	diff "$tmp/want" "$tmp/err.sonde" || fail "$1: messages differ from strace's"
}
# two processes, interrupted (SIGINT): each attached, each detached
sleep 300 & p1=$!; sleep 300 & p2=$!; pids+=($p1 $p2)
for tool in strace sonde; do interrupted $tool "$tmp/err.$tool" INT -p $p1,$p2 -o /dev/null; done
same_msgs "-p PID,PID"
kill $p1 $p2
# -f on a process with threads (SIGTERM): "attached with 3 threads", then
# each thread detached, in strace's order
mkfifo "$tmp/ctl"
"$py" -c '
import os, sys, threading
ev = threading.Event()
for _ in range(2):
    threading.Thread(target=ev.wait, daemon=True).start()
print("ready", flush=True)
sys.stdin.read()
os._exit(0)' < "$tmp/ctl" > "$tmp/ready" & p=$!; pids+=($p)
exec 8>"$tmp/ctl"
until has_line "$tmp/ready" '^ready$'; do kill -0 $p || fail "threaded process gone"; sleep 0.05; done
for tool in strace sonde; do interrupted $tool "$tmp/err.$tool" TERM -f -p $p -o /dev/null; done
same_msgs "-f -p on threads"
grep -qx "sonde trace: Process $p attached with 3 threads" "$tmp/err.sonde" || fail "-f -p: thread count"
exec 8>&-
wait $p
# -f and a command, output on stderr: each child attached (their pids differ
# between the runs); with -o FILE and a command, as with -q, no message
msgs() { grep -E '^(strace|sonde trace): ' "$1" | sed -E 's/^strace: /sonde trace: /; s/[0-9]+/N/g'; }
for opts in "" "-o $tmp/trace.out" "-q"; do
	# shellcheck disable=SC2086
	timeout 120 strace -f $opts -e trace=exit_group sh -c '/bin/true; /bin/true' 2>"$tmp/err.strace"
	# shellcheck disable=SC2086
	timeout 120 "$SONDE" trace -f $opts -e trace=exit_group -- sh -c '/bin/true; /bin/true' 2>"$tmp/err.sonde"
	diff <(msgs "$tmp/err.strace") <(msgs "$tmp/err.sonde") || fail "-f $opts with a command: messages"
	[ -n "$opts" ] || [ "$(msgs "$tmp/err.sonde" | wc -l)" = 2 ] || fail "-f with a command: two children attached"
done
[ "$(msgs "$tmp/err.sonde" | wc -l)" = 0 ] && [ "$(grep -c attached "$tmp/err.strace")" = 0 ] || fail "-q"
# a recording of a command is written with -o FILE: quiet too
timeout 120 "$SONDE" trace record -f -o "$tmp/rec" -- sh -c '/bin/true' 2>"$tmp/err.sonde"
[ "$(msgs "$tmp/err.sonde" | wc -l)" = 0 ] || fail "record -f -o: messages"
echo ok
