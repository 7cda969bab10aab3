#!/usr/bin/env bash
# SONDE_TIMES=1 prints where start-up time goes: one "sonde: T ms: PHASE"
# line per phase on stderr, T the time since the process started, never
# decreasing; stdout is the same as without it; unset, nothing is printed.
SONDE=${SONDE:-./sonde}
# no process is pid 0: other processes' getpid calls must not change the output
prog='tracepoint:syscalls:sys_enter_getpid /pid == 0/ { @ = count(); } BEGIN { printf("go\n"); exit(); }'
plain=$(timeout 30 "$SONDE" -e "$prog" 2>/tmp/sonde_times.$$.plain)
timed=$(SONDE_TIMES=1 timeout 30 "$SONDE" -e "$prog" 2>/tmp/sonde_times.$$.err)
err=$(cat /tmp/sonde_times.$$.err); plainerr=$(cat /tmp/sonde_times.$$.plain)
rm -f /tmp/sonde_times.$$.*
fail=0
[ "$plain" = "$timed" ] || { printf 'stdout differs:\n%s\n---\n%s\n' "$plain" "$timed"; fail=1; }
[ -z "$plainerr" ] || { printf 'without SONDE_TIMES, stderr: %s\n' "$plainerr"; fail=1; }
phases=$(sed -nE 's/^sonde: [0-9]+\.[0-9] ms: //p' <<<"$err")
want=$'main\nparsed\ncompiled\nmaps created, programs loaded\ntracepoint:syscalls:sys_enter_getpid\nattached\nBEGIN ran'
[ "$phases" = "$want" ] || { printf 'phases:\n%s\nwant:\n%s\n' "$phases" "$want"; fail=1; }
sed -nE 's/^sonde: ([0-9.]+) ms: .*/\1/p' <<<"$err" |
	awk 'NR > 1 && $1 < prev { bad = 1 } { prev = $1 } END { exit bad }' ||
	{ printf 'times decrease:\n%s\n' "$err"; fail=1; }
exit $fail
