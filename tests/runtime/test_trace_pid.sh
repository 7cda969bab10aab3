#!/usr/bin/env bash
# sonde trace -p: attach to running processes, show their calls, leave when
# they are gone.  Without -f/-T only the calls that need it are seen at
# their entry; a call in progress when tracing starts is then shown whole at
# its return.  With -T every entry is seen.  SIGKILL is never shown (strace
# never sees it taken): "+++ killed by SIGTERM +++" says what happened.
set -u
cd "$(dirname "$0")/../.."
SONDE=${SONDE:-$PWD/sonde}
[ "$(id -u)" = 0 ] || exit 77
tmp=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; for f in "$tmp"/out*; do echo "--- $f:"; cat "$f"; done; exit 1; }

# sonde prints nothing once attached, and under load attaching takes seconds:
# each check is retried with a longer wait before acting (1, 3, 9 s), so the
# machine's speed decides how long the test takes, never whether it passes.

# killed_sleeper DELAY: a process blocked in clock_nanosleep, then killed
killed_sleeper() {
	sleep 30 & p=$!; pids+=($p)
	timeout 30 "$SONDE" trace -p $p -o "$tmp/out1" & t=$!
	sleep "$1"
	kill $p
	wait $t; rc=$?
	[ $rc = 0 ] || fail "sonde -p exit status $rc"
	grep -qE '^clock_nanosleep\(CLOCK_REALTIME, 0, \{tv_sec=30, tv_nsec=0\}, 0x[0-9a-f]+\) += \?' "$tmp/out1"
}
ok=
for d in 1 3 9; do killed_sleeper $d && { ok=1; break; }; done
[ -n "$ok" ] || fail "call in progress at attach not shown"
grep -qx '+++ killed by SIGTERM +++' "$tmp/out1" || fail "no killed line"
! grep -q SIGKILL "$tmp/out1" || fail "SIGKILL shown"

# a process making calls; -e, and -T (every entry seen)
bash -c 'while :; do echo tick >/dev/null; sleep 0.05; done' & p=$!; pids+=($p)
# writes OPTS DELAY: how many of the loop's writes sonde shows in DELAY s
writes() {
	# shellcheck disable=SC2086
	timeout 30 "$SONDE" trace $1 -e trace=write -p $p -o "$tmp/out2" & t=$!
	sleep "$2"
	kill -INT $t
	wait $t
	grep -cE '^write\(1, "tick\\n", 5\) += 5' "$tmp/out2"
}
for opts in "" "-T"; do
	for d in 1 3 9; do
		n=$(writes "$opts" $d)
		[ "$n" -ge 5 ] && break
	done
	[ "$n" -ge 5 ] || fail "-p $opts: $n write lines"
	if [ "$opts" = -T ]; then
		grep -qE '^write\(1, "tick\\n", 5\) += 5 <0\.[0-9]{6}>$' "$tmp/out2" || fail "-T times"
	fi
	! grep -qvE '^write\(|^--- SIGCHLD|^sonde trace|^$' "$tmp/out2" || fail "-p $opts: other lines"
done
kill $p

# -f and threads: each thread's exit shows ("[pid N] +++ exited with 0 +++"
# as strace) and leaves the pid set, so sonde ends with the process
py=$(command -v python3.11 || command -v python3)
timeout 20 "$SONDE" trace -f -e trace=exit,exit_group -- "$py" -c \
	'import threading; t = threading.Thread(target=lambda: None); t.start(); t.join()' 2>"$tmp/out3"
rc=$?
[ $rc = 0 ] || fail "-f with a thread: status $rc (124: sonde did not end)"
grep -qE '^\[pid +[0-9]+\] exit\(0\) += \?$' "$tmp/out3" || fail "thread exit call"
grep -qE '^\[pid +[0-9]+\] \+\+\+ exited with 0 \+\+\+$' "$tmp/out3" || fail "thread exit line"
tail -n 1 "$tmp/out3" | grep -qx '+++ exited with 0 +++' || fail "process exit line"
echo ok
