#!/usr/bin/env bash
# -l PATTERN with characters an attach point cannot hold: bpftrace 0.17 parses
# the pattern as a program of attach points and prints its parser's error
# (exit status 1). Each case is checked against the expected text and, when
# bpftrace is installed, against bpftrace (end columns and underlines aside,
# as in tests/compat).
export SONDE_COMPAT=0.17 # compared with bpftrace 0.17: sonde speaks its generation
set -u
fail=0
norm() { sed -E -e '/RLIMIT_MEMLOCK/d' -e 's/^(stdin:[0-9]+:[0-9]+)-[0-9]+:/\1:/' -e 's/^ *[~^][~^]*$/^/'; }
run() { "$@" 2>&1 | norm; echo "exit ${PIPESTATUS[0]}"; }
check() { # PATTERN WANT
	local pat=$1 want=$2 got ref
	got=$(run "$SONDE" -l "$pat")
	[ "$got" == "$want" ] || { echo "-l '$pat': got"; echo "$got"; echo "--- want"; echo "$want"; fail=1; }
	if command -v bpftrace >/dev/null; then
		ref=$(run bpftrace -l "$pat")
		[ "$got" == "$ref" ] || { echo "-l '$pat' differs from bpftrace:"; echo "$ref"; fail=1; }
	fi
}
check 'kprobe:foo)' "stdin:1:1: ERROR: syntax error, unexpected ), expecting {
kprobe:foo)
^
exit 1"
check 'tracepoint:sched:sched_switch{' "stdin:1:1: ERROR: syntax error, unexpected end of file, expecting }
tracepoint:sched:sched_switch{
^
exit 1"
check 'tracepoint:sched:sched_switch {}' "stdin:1:1: ERROR: unexpected listing query format
tracepoint:sched:sched_switch {}
^
exit 1"
check 'tracepoint:sched:sched_switch /pid/' "stdin:1:31: ERROR: syntax error, unexpected end of file
tracepoint:sched:sched_switch /pid/
^
exit 1"
check 'uprobe:/bin/bash:read$' "stdin:1:1: ERROR: invalid character '\$'
uprobe:/bin/bash:read\$
^
exit 1"
check 'tracepoint:sched:@x' "stdin:1:1: ERROR: syntax error, unexpected map, expecting {
tracepoint:sched:@x
^
exit 1"
check 'tracepoint:sched:sched_switch $x' "stdin:1:31: ERROR: syntax error, unexpected variable, expecting {
tracepoint:sched:sched_switch \$x
^
exit 1"
check 'tracepoint:sched:sched_switch==' "stdin:1:1: ERROR: syntax error, unexpected ==, expecting {
tracepoint:sched:sched_switch==
^
exit 1"
check 'tracepoint:sched:sched_wakeup"' "stdin:1:1: ERROR: unterminated string
tracepoint:sched:sched_wakeup\"
^
exit 1"
# pieces separated by whitespace or quoted join into one attach point
check 'tracepoint:sched:sched_sw "itch"' "tracepoint:sched:sched_switch
exit 0"
check 'tracepoint:sched:sched_switch,tracepoint:sched:sched_wakeup' "tracepoint:sched:sched_switch
tracepoint:sched:sched_wakeup
exit 0"
exit $fail
