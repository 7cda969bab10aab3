#!/usr/bin/env bash
# sonde trace on real commands: decoded lines match the calls the test
# programs really make; exit statuses pass through; -f, -Z, -z, -e, -c, -T.
set -u
cd "$(dirname "$0")/../.."
SONDE=${SONDE:-$PWD/sonde}
known=build/progs/trace_known fork=build/progs/trace_fork
[ -x "$known" ] && [ -x "$fork" ] || { echo "build/progs missing (make)"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -qxF -- "$2" "$1" || { echo "--- $1:"; head -60 "$1"; fail "missing line: $2"; }; }
# strace's padding: "call(...)" shorter than 39 columns gets spaces so "="
# lands at column 40 (prefixes "[pid N] " and timestamps count); longer: " = "
eq40() { printf '%-39s = %s' "$1" "$2"; }
# every line with a result in $1 is padded that way (the last ") =" counts)
cols() {
	awk '{ l = $0; s = l; p = 0; off = 0
		while (match(s, /\) +=( |$)/)) { p = off + RSTART; off += RSTART; s = substr(l, off + 1) }
		if (!p) next
		match(substr(l, p + 1), /^ +/); want = p < 39 ? 40 - p : 1
		if (RLENGTH != want) { print "bad padding (" RLENGTH " spaces, want " want "): " l; bad = 1 } }
		END { exit bad }' "$1" || fail "padding of ' = ' in $1"
}

"$SONDE" trace -o "$tmp/out" -- "$known" "$tmp/f"; rc=$?
[ $rc = 3 ] || fail "exit status $rc, want 3 (the command's)"
has "$tmp/out" "$(eq40 "openat(AT_FDCWD, \"$tmp/f\", O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0640)" 3)"
has "$tmp/out" 'write(3, "hello\tworld\n", 12)          = 12'
has "$tmp/out" 'read(3, "hello\tworld\n", 64)           = 12'
has "$tmp/out" 'openat(AT_FDCWD, "/nonexistent/sonde", O_RDONLY) = -1 ENOENT (No such file or directory)'
has "$tmp/out" "$(eq40 "unlink(\"$tmp/f\")" 0)"
has "$tmp/out" 'socket(AF_INET, SOCK_STREAM, IPPROTO_IP) = 3'
has "$tmp/out" 'connect(3, {sa_family=AF_INET, sin_port=htons(1), sin_addr=inet_addr("127.0.0.1")}, 16) = -1 ECONNREFUSED (Connection refused)'
has "$tmp/out" 'clock_nanosleep(CLOCK_REALTIME, 0, {tv_sec=0, tv_nsec=1000000}, NULL) = 0'
has "$tmp/out" 'exit_group(3)                           = ?'
has "$tmp/out" '+++ exited with 3 +++'
cols "$tmp/out"
grep -qE '^execve\(".*trace_known", \[".*trace_known", "'"$tmp"'/f"\], 0x[0-9a-f]+ /\* [0-9]+ vars \*/\) = 0$' "$tmp/out" || fail "execve line"
# -s: buffers cut with "..." after the quote
"$SONDE" trace -s 5 -e trace=write,read -o "$tmp/out" -- "$known" "$tmp/f"
has "$tmp/out" 'write(3, "hello"..., 12)                = 12'
cols "$tmp/out"
# -Z: only failures; -z: only successes
"$SONDE" trace -Z -e trace=openat -o "$tmp/out" -- "$known" "$tmp/f"
has "$tmp/out" 'openat(AT_FDCWD, "/nonexistent/sonde", O_RDONLY) = -1 ENOENT (No such file or directory)'
! grep -q '= 3$' "$tmp/out" || fail "-Z printed a successful call"
"$SONDE" trace -z -e trace=openat -o "$tmp/out" -- "$known" "$tmp/f"
! grep -q ENOENT "$tmp/out" || fail "-z printed a failed call"
# -e classes and negation
"$SONDE" trace -e trace=%network -o "$tmp/out" -- "$known" "$tmp/f"
n=$(grep -cvE '^(socket|connect)\(|^\+\+\+' "$tmp/out")
[ "$n" = 0 ] || fail "%network let through: $(grep -vE '^(socket|connect)\(|^\+\+\+' "$tmp/out" | head -3)"
"$SONDE" trace -e '!mmap,mprotect' -o "$tmp/out" -- "$known" "$tmp/f"
! grep -qE '^(mmap|mprotect)\(' "$tmp/out" || fail "!mmap,mprotect"
grep -q '^write(' "$tmp/out" || fail "!mmap dropped write"
# -T and -tt
"$SONDE" trace -T -tt -e trace=clock_nanosleep,close -o "$tmp/out" -- "$known" "$tmp/f"
grep -qE '^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6} clock_nanosleep\(.*\) = 0 <0\.[0-9]{6}>$' "$tmp/out" || { cat "$tmp/out"; fail "-T -tt"; }
# the timestamp counts towards column 40; the <duration> comes after
grep -qE '^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6} close\(3\) {16}= 0 <0\.[0-9]{6}>$' "$tmp/out" || { cat "$tmp/out"; fail "-T -tt padding"; }
cols "$tmp/out"
# -y: fd paths
"$SONDE" trace -y -e trace=write -o "$tmp/out" -- "$known" "$tmp/f"
has "$tmp/out" "$(eq40 "write(3<$tmp/f>, \"hello\\tworld\\n\", 12)" 12)"
cols "$tmp/out"
# -f -o FILE: as strace, every line starts with its pid ("PID   "): the
# child's calls, its exit, the parent's wait status
"$SONDE" trace -f -e trace=write,wait4,exit_group -o "$tmp/out" -- "$fork" >"$tmp/fork_stdout"; rc=$?
[ $rc = 0 ] || fail "-f exit status $rc"
grep -qE '^[0-9]+ +write\(1, "child\\n", 6\) += 6$' "$tmp/out" || { cat "$tmp/out"; fail "-f child write"; }
grep -qE '^[0-9]+ +\+\+\+ exited with 7 \+\+\+$' "$tmp/out" || fail "-f child exit"
grep -qE '^[0-9]+ +(wait4\([0-9]+, |<\.\.\. wait4 resumed>)\[\{WIFEXITED\(s\) && WEXITSTATUS\(s\) == 7\}\], 0, NULL\) = [0-9]+$' "$tmp/out" || fail "wait4 status"
! grep -qvE '^[0-9]+ +' "$tmp/out" || { cat "$tmp/out"; fail "-f -o: a line without its pid"; }
[ "$(awk '{ print $1 }' "$tmp/out" | sort -u | wc -l)" = 2 ] || fail "-f -o: not two pids"
cols "$tmp/out"
# -f to stderr: "[pid N] " while more than one task is traced, on the
# parent's lines too; none once the child is gone
"$SONDE" trace -f -e trace=write,wait4,exit_group -- "$fork" 2>"$tmp/out" | cat >/dev/null
grep -qE '^\[pid +[0-9]+\] write\(1, "child\\n", 6\) += 6$' "$tmp/out" || { cat "$tmp/out"; fail "-f child write"; }
grep -qE '^\[pid +[0-9]+\] \+\+\+ exited with 7 \+\+\+$' "$tmp/out" || fail "-f child exit"
tail -n 2 "$tmp/out" | head -1 | grep -qE '^exit_group\(0\) += \?$' || { cat "$tmp/out"; fail "-f prefix after the child's exit"; }
grep -qE '^\[pid +[0-9]+\] wait4|^<\.\.\. wait4 resumed>|^wait4\(' "$tmp/out" || fail "-f parent wait4"
cols "$tmp/out"
# -f: a call blocked while another task's line is printed is split as strace
# splits it: inputs and "<unfinished ...>", then "<... name resumed>" and the rest
"$SONDE" trace -f -e trace=write,poll,wait4,clock_nanosleep -o "$tmp/out" -- build/progs/trace_block | cat >/dev/null; rc=${PIPESTATUS[0]}
[ $rc = 0 ] || fail "-f block exit status $rc"
pat_split() { grep -A100 -E "$1" "$tmp/out" | grep -qE "$2" || { cat "$tmp/out"; fail "$3"; }; }
pat_split '^[0-9]+ +poll\(\[\{fd=[0-9]+, events=POLLIN\}\], 1, -1 <unfinished \.\.\.>$' \
	'^[0-9]+ +<\.\.\. poll resumed>\) {15}= 1 \(\[\{fd=[0-9]+, revents=POLLIN\}\]\)$' "poll unfinished/resumed"
pat_split '^[0-9]+ +wait4\([0-9]+,  <unfinished \.\.\.>$' \
	'^[0-9]+ +<\.\.\. wait4 resumed>\[\{WIFEXITED\(s\) && WEXITSTATUS\(s\) == 7\}\], 0, NULL\) = [0-9]+$' "wait4 unfinished/resumed"
pat_split '^[0-9]+ +clock_nanosleep\(CLOCK_REALTIME, 0, \{tv_sec=0, tv_nsec=100000000\},  <unfinished \.\.\.>$' \
	'^[0-9]+ +<\.\.\. clock_nanosleep resumed>NULL\) = 0$' "clock_nanosleep unfinished/resumed"
grep -qE '^[0-9]+ +write\(1, "child\\n", 6\) += 6$' "$tmp/out" || fail "-f block child write"
cols "$tmp/out"
# without another task nothing is split
! grep -q 'unfinished' <("$SONDE" trace -f -e trace=clock_nanosleep -- "$known" "$tmp/f" 2>&1) || fail "split without -f tasks"
# without -f the child is not traced
"$SONDE" trace -e trace=write -o "$tmp/out" -- "$fork" >/dev/null
! grep -q child "$tmp/out" || fail "child traced without -f"
# -c: counted in the kernel
"$SONDE" trace -c -o "$tmp/out" -- "$known" "$tmp/f"
grep -qE '^ *[0-9.]+ +[0-9.]+ +[0-9]+ +[0-9]+ +1 openat$' "$tmp/out" || { cat "$tmp/out"; fail "-c openat row"; }
grep -qE '^100\.00 .* total$' "$tmp/out" || fail "-c total"
# --hist
"$SONDE" trace --hist -e trace=clock_nanosleep -o "$tmp/out" -- "$known" "$tmp/f"
grep -q '^clock_nanosleep: 1 calls' "$tmp/out" || { cat "$tmp/out"; fail "--hist"; }
grep -qE '^\[(512K, 1M|[0-9]+M, [0-9]+[MG])\) +1 \|@+' "$tmp/out" || { cat "$tmp/out"; fail "--hist bucket"; }
# --duration: only the 200 ms sleep is that slow (a 50 ms threshold: a
# close preempted on a loaded machine stays far below it)
"$SONDE" trace --duration 50 -o "$tmp/out" -- sleep 0.2
grep -q '^clock_nanosleep(' "$tmp/out" || fail "--duration lost the sleep"
! grep -q '^close(' "$tmp/out" || fail "--duration kept a fast call"
# real commands
echo "sonde was here" > "$tmp/in"
"$SONDE" trace -e trace=read -o "$tmp/out" -- cat "$tmp/in" >/dev/null
has "$tmp/out" 'read(3, "sonde was here\n", 131072)     = 15'
cols "$tmp/out"
"$SONDE" trace -e trace=clock_nanosleep -o "$tmp/out" -- sleep 0.2
grep -qE '^clock_nanosleep\(CLOCK_REALTIME, 0, \{tv_sec=0, tv_nsec=200000000\}, (NULL|0x[0-9a-f]+)\) = 0$' "$tmp/out" || fail "sleep 0.2"
"$SONDE" trace -o "$tmp/out" -- ls /nonexistent-dir 2>/dev/null; rc=$?
[ $rc = 2 ] || fail "ls exit status $rc"
has "$tmp/out" '+++ exited with 2 +++'
# record/report: fd names travel in the file (report -y never reads /proc),
# also for fds the recorded calls never opened (stdin here, and its dup2
# copy); --event tracepoints are recorded with their layout
"$SONDE" trace record -o "$tmp/rec" --event sched:sched_process_exec -- \
	sh -c 'exec 7<"$1"; read x <&7; exec 8<&7; read y <&8; :' sh "$tmp/in" </dev/null
"$SONDE" trace report -y -e trace=read,fcntl,dup2 -o "$tmp/out" "$tmp/rec"
# (sh opens the file as 3, moves it to 7, and reads through dup2 copies on 0;
# the new fd is named after the call, as strace names it)
grep -qxF "$(eq40 "dup2(7<$tmp/in>, 8)" "8<$tmp/in>")" "$tmp/out" || { cat "$tmp/out"; fail "report -y: fd 7"; }
grep -qxF "$(eq40 "read(0<$tmp/in>, \"s\", 1)" 1)" "$tmp/out" || { cat "$tmp/out"; fail "report -y: a dup"; }
cols "$tmp/out"
# an fd no recorded call opened: its name is stored as the recording sees it
"$SONDE" trace record -o "$tmp/rec2" -e trace=read -- sh -c 'read x; sleep 0.2' < "$tmp/in"
"$SONDE" trace report -y -o "$tmp/out" "$tmp/rec2"
grep -qxF "$(eq40 "read(0<$tmp/in>, \"s\", 1)" 1)" "$tmp/out" || { cat "$tmp/out"; fail "report -y: stdin"; }
cols "$tmp/out"
"$SONDE" trace report --no-syscalls -o "$tmp/out" "$tmp/rec"
grep -q '^sched:sched_process_exec(filename="/usr/bin/sh", pid=[0-9]*, old_pid=[0-9]*)$' "$tmp/out" ||
	{ cat "$tmp/out"; fail "recorded --event"; }
# lost events are never silent: none here
! grep -q lost "$tmp/out" || fail "lost events"
# flags of calls without an access mode: 0 prints as 0, as strace does
out=$("$SONDE" trace -e trace=pipe2,dup3 -- python3 -c 'import os; r, w = os.pipe2(0); os.dup2(r, 9, inheritable=False)' 2>&1)
grep -q '^pipe2(\[[0-9]*, [0-9]*\], 0)  *= 0$' <<<"$out" || fail "pipe2 flags 0: $out"
grep -q '^dup3([0-9]*, 9, O_CLOEXEC)  *= 9$' <<<"$out" || fail "dup3 O_CLOEXEC: $out"
cols <(printf '%s\n' "$out")
# big captures: -s above the 32 KiB per-CPU value limit still works
"$SONDE" trace -o "$tmp/big" -s 30000 -e trace=write -- dd if=/dev/zero bs=20000 count=1 of=/dev/null 2>/dev/null ||
	fail "-s 30000"
n=$(grep '^write(1, ' "$tmp/big" | awk '{ print length($0) }')
[ "${n:-0}" -gt 40000 ] || fail "-s 30000: a 20000-byte write printed as ${n:-0} characters"
exit 0
