#!/usr/bin/env bash
# Where sonde trace's syscall programs go, and that each placement prints the
# same calls: the raw tracepoints sys_enter/sys_exit (every call of every
# process runs them), or, for a few calls traced with -e, the calls' own
# syscalls:sys_enter_NAME/sys_exit_NAME tracepoints (the other calls cost a
# bitmap test).  -v says which.
set -u
cd "$(dirname "$0")/../.."
SONDE=${SONDE:-$PWD/sonde}
[ "$(id -u)" = 0 ] || exit 77
[ -x build/progs/trace_block ] || { echo "build/progs missing"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/out" "$tmp/err" 2>/dev/null; exit 1; }
own="exits on the calls' own NAME tracepoints"
# rare calls: their own tracepoints, entries only where needed
"$SONDE" trace -v -e trace=openat,close -o "$tmp/out" -- cat /etc/hostname 2>"$tmp/err" >/dev/null
grep -q "$own" "$tmp/err" || fail "openat,close not on their tracepoints"
grep -qE '^openat\(AT_FDCWD, "/etc/hostname", O_RDONLY\) += 3$' "$tmp/out" || fail "openat line"
grep -qE '^close\(3\) += 0$' "$tmp/out" || fail "close line"
! grep -qvE '^(openat|close)\(|^\+\+\+ exited with 0 \+\+\+$' "$tmp/out" || fail "other lines"
# with times: entries on the calls' tracepoints too
"$SONDE" trace -v -T -e trace=openat -o "$tmp/out" -- cat /etc/hostname 2>"$tmp/err" >/dev/null
grep -q "entries on the calls' own NAME tracepoints, $own" "$tmp/err" || fail "-T hooks"
grep -qE '^openat\(AT_FDCWD, "/etc/hostname", O_RDONLY\) += 3 <0\.[0-9]{6}>$' "$tmp/out" || fail "-T line"
# -c
"$SONDE" trace -v -c -e trace=openat,close -o "$tmp/out" -- cat /etc/hostname 2>"$tmp/err" >/dev/null
grep -q "$own" "$tmp/err" || fail "-c hooks"
grep -qE ' [1-9][0-9]* +[0-9]* *openat$' "$tmp/out" || fail "-c openat row"
# -f: entries for the unfinished calls, children followed
"$SONDE" trace -v -f -e trace=clock_nanosleep,wait4,exit_group -- build/progs/trace_block 2>"$tmp/out" | cat >/dev/null
grep -q "$own" "$tmp/out" || fail "-f hooks"
grep -qE '^\[pid +[0-9]+\] wait4\([0-9]+,  <unfinished \.\.\.>$' "$tmp/out" || fail "-f unfinished wait4"
grep -qE '^<\.\.\. wait4 resumed>\[\{WIFEXITED\(s\) && WEXITSTATUS\(s\) == 7\}\], 0, NULL\) = [0-9]+$' "$tmp/out" ||
	fail "-f resumed wait4"
[ "$(grep -cE '^\[pid +[0-9]+\] clock_nanosleep\(CLOCK_REALTIME, 0, \{tv_sec=0, tv_nsec=100000000\}, NULL\) = 0$' "$tmp/out")" = 2 ] ||
	fail "-f child clock_nanosleep"
# hot calls (read/write), and rt_sigreturn (its number is gone at its
# exit): the raw tracepoint sys_exit
"$SONDE" trace -v -e trace=write -o "$tmp/out" -- cat /etc/hostname 2>"$tmp/err" >/dev/null
grep -q "exits on the raw tracepoint sys_exit" "$tmp/err" || fail "write on its tracepoint"
"$SONDE" trace -v -e trace=rt_sigreturn,kill -o "$tmp/out" -- build/progs/trace_signals 2>"$tmp/err"
grep -q "exits on the raw tracepoint sys_exit" "$tmp/err" || fail "rt_sigreturn on its tracepoint"
[ "$(grep -c '^rt_sigreturn({mask=\[\]}) ' "$tmp/out")" = 3 ] || fail "rt_sigreturn lines"
# an untraced process writing on the same CPU shows nothing, the traced
# one all its calls; no program on sched_switch (a per-CPU cache of the
# running task filled there went stale: see docs/DESIGN.md)
taskset -c 0 bash -c 'while :; do echo other > /dev/null; done' & other=$!
taskset -c 0 "$SONDE" trace -v -e trace=write -o "$tmp/out" -- sh -c 'for i in 1 2 3 4 5; do echo hi; done' \
	2>"$tmp/err" | cat >/dev/null
kill $other
! grep -q 'sched_switch' "$tmp/err" || fail "a sched_switch program"
[ "$(grep -cE '^write\(1, "hi\\n", 3\) += 3$' "$tmp/out")" = 5 ] || fail "traced writes"
! grep -q other "$tmp/out" || fail "an untraced process's writes"
echo ok
