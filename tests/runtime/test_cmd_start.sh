#!/usr/bin/env bash
# -c CMD: the command stops itself (SIGSTOP) before its exec until the
# probes are attached, so the first thing a probe on it sees is its exec:
# never sonde's own code in the child (it used to read a pipe: a first
# sys_exit_read match of "sonde ret=1", where bpftrace's is the command's).
SONDE=${SONDE:-./sonde}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
printf 'hello\n' >"$tmp/f"
check() { # what, got, want (a pattern)
	[[ "$2" == $3 ]] || { printf '%s:\n--- want\n%s\n--- got\n%s\n' "$1" "$3" "$2"; fail=1; }
}
# the first system call the child returns from is its exec (59), as the command
got=$("$SONDE" -q -e 'tracepoint:raw_syscalls:sys_exit /pid == cpid/ { printf("%s %d\n", comm, args->id); exit(); }' -c /bin/true 2>&1)
check "first sys_exit of the child" "$got" "true 59"
got=$(SONDE_COMPAT=0.17 "$SONDE" -e 'tracepoint:raw_syscalls:sys_exit /pid == cpid/ { printf("%s %d\n", comm, args->id); exit(); }' -c true 2>&1 | grep -v '^Attaching' | head -1)
check "0.17, command found in PATH" "$got" "true 59"
# the first read is the command's own (the command's own output, hello, may
# come before or after sonde's line)
got=$("$SONDE" -q -e 'tracepoint:syscalls:sys_exit_read /pid == cpid/ { printf("%s\n", comm); exit(); }' -c "cat $tmp/f" 2>&1 | grep -m1 -xE 'cat|sonde')
check "first read" "$got" "cat"
got=$("$SONDE" dtrace -q -n 'syscall::read:return /pid == $target/ { printf("%s\n", execname); exit(0); }' -c "cat $tmp/f" 2>&1 | grep -m1 -xE 'cat|sonde')
check "D: first read" "$got" "cat"
# its one pre-exec system call after sonde lets it go is the exec itself
got=$("$SONDE" -q -e 'tracepoint:raw_syscalls:sys_enter /pid == cpid && comm == "sonde"/ { printf("%d\n", args->id); }' -c /bin/true 2>&1)
check "pre-exec calls" "$got" "59"
# letting it go (SIGCONT) sends sonde no SIGCHLD from it: its only signal is its end's
got=$("$SONDE" dtrace -q -n 'proc:::signal-send /pid == $target/ { printf("%s %d\n", execname, args[2]); }' -c /bin/true 2>&1 | grep -v '^$')
check "D: signals the command sends" "$got" "true 17"
# the command's output and exit status are its own
got=$("$SONDE" -q -e 'interval:s:100 { } END { printf("end\n"); }' -c "cat $tmp/f" 2>&1)
check "command output" "$got" $'hello\nend'
# a script that does not compile: the stopped command is killed, never run
"$SONDE" -e 'BEGIN { x' -c "sleep 31.4159" >/dev/null 2>&1
left=$(pgrep -f "sleep 31.4159")
[ -z "$left" ] || { echo "a stopped -c command was left"; kill -KILL $left; fail=1; }
# a command that does not exist: bpftrace's message, no run
got=$("$SONDE" -e 'BEGIN { exit(); }' -c /nonexistent/cmd 2>&1); rc=$?
check "missing command" "$rc $got" "255 ERROR: Failed to fork child: path '/nonexistent/cmd' does not exist or is not executable"
exit $fail
