#!/usr/bin/env bash
# Every way out of a run takes the same path as Ctrl-C: END runs, the maps
# print, and the probes are detached by a helper after sonde has exited.
# SIGPIPE (a reader such as head(1) that has seen enough) and SIGHUP used to
# kill sonde, which then detached 360 tracepoints in its exit, unkillable for
# 10-25 s; the end of the -c command, of the -p process, and exit() used to
# wait for the ring to empty, which events that feed themselves never let it
# do.  The bounds below (30 s) only tell "never" from "at once" (~1 s).
SONDE=${SONDE:-./sonde}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
say() { echo "$*"; fail=1; }
# Each case runs twice: as started by a shell, and with SIGPIPE and SIGHUP
# blocked by the caller (a CI runner or a service manager can hand down
# such a mask; sonde then wrote to the closed pipe for ever)
cat >"$tmp/blocked.py" <<'EOF'
import os, signal, sys
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGPIPE, signal.SIGHUP})
os.execvp(sys.argv[1], sys.argv[1:])
EOF
blocked="python3 $tmp/blocked.py"
# SIGPIPE: sonde is not killed by it (status 141); END runs (its system()
# writes to stderr: stdout is the closed pipe).  sonde does not trace its
# own system calls and a quiet machine makes few: yes(1) makes them, so
# that head(1) has its lines and sonde has more to write at once (only
# its: the same on a quiet machine as on a busy one)
on_sigpipe() { # how: "" or $blocked
	timeout 40 yes >/dev/null &
	local load=$!
	timeout 30 $1 "$SONDE" --unsafe -e 'tracepoint:raw_syscalls:sys_enter /comm == "yes"/ { printf("%s\n", comm); }
		END { system("echo end ran >&2"); }' 2>"$tmp/err" | head -2 >/dev/null
	local rc=${PIPESTATUS[0]}
	kill $load 2>/dev/null; wait $load 2>/dev/null
	[ "$rc" = 0 ] && grep -q "end ran" "$tmp/err" ||
		say "SIGPIPE${1:+ (blocked)}: status $rc (124: it did not end), stderr: $(head -c 300 "$tmp/err")"
}
# SIGHUP: as SIGINT and SIGTERM (test_signals.sh)
on_sighup() { # how: "" or $blocked
	$1 "$SONDE" -e 'BEGIN { @b = 7; } interval:ms:250 { @t = count(); } END { printf("end ran\n"); clear(@t); }' \
		>"$tmp/hup" 2>&1 &
	local pid=$! i rc
	for i in $(seq 100); do grep -q Attach "$tmp/hup" && break; sleep 0.1; done
	kill -HUP $pid
	for i in $(seq 300); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
	kill -0 $pid 2>/dev/null && { kill -KILL $pid; say "SIGHUP${1:+ (blocked)}: sonde did not end in 30 s"; }
	wait $pid; rc=$?
	[ $rc = 0 ] && [ "$(grep -v Attach "$tmp/hup")" = $'end ran\n\n\n@b: 7\n@t: 0' ] ||
		say "SIGHUP${1:+ (blocked)}: status $rc: $(cat "$tmp/hup")"
}
on_sigpipe ""; on_sigpipe "$blocked"
on_sighup ""; on_sighup "$blocked"
# events that feed themselves (each system() switches tasks, which runs
# system() again): each way out still ends the run, and END runs.  The
# events owed when the run ended that could not be acted on in time are
# counted as lost (Lost N events, after the maps)
storm='tracepoint:sched:sched_switch { system("echo foo"); } END { printf("end\n"); }'
ends() { # what, then sonde's arguments
	local what=$1; shift
	timeout 30 "$SONDE" --unsafe "$@" >"$tmp/storm" 2>&1; local rc=$?
	[ $rc = 0 ] && [ "$(grep -vE '^$|^Lost [0-9]+ events$' "$tmp/storm" | tail -1)" = end ] ||
		say "$what: status $rc (124: it did not end), last: $(tail -c 60 "$tmp/storm")"
}
ends "end of -c" -e "$storm" -c "sleep 1"
ends "exit()" -e "$storm interval:s:1 { exit(); }"
sleep 2 & sp=$!
ends "end of -p" -p $sp -e "$storm"
exit $fail
