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
# SIGPIPE: sonde is not killed by it (status 141); END runs (its system()
# writes to stderr: stdout is the closed pipe)
"$SONDE" --unsafe -e 'tracepoint:raw_syscalls:sys_enter { printf("%s\n", comm); }
	END { system("echo end ran >&2"); }' 2>"$tmp/err" | head -2 >/dev/null
rc=${PIPESTATUS[0]}
[ "$rc" = 0 ] && grep -q "end ran" "$tmp/err" ||
	say "SIGPIPE: status $rc, stderr: $(head -c 300 "$tmp/err")"
# SIGHUP: as SIGINT and SIGTERM (test_signals.sh)
"$SONDE" -e 'BEGIN { @b = 7; } interval:ms:250 { @t = count(); } END { printf("end ran\n"); clear(@t); }' \
	>"$tmp/hup" 2>&1 &
pid=$!
for i in $(seq 100); do grep -q Attach "$tmp/hup" && break; sleep 0.1; done
kill -HUP $pid; wait $pid; rc=$?
[ $rc = 0 ] && [ "$(grep -v Attach "$tmp/hup")" = $'end ran\n\n\n@b: 7\n@t: 0' ] ||
	say "SIGHUP: status $rc: $(cat "$tmp/hup")"
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
