#!/usr/bin/env bash
# bpftrace 0.26's self:signal:SIGUSR1 probes: each SIGUSR1 runs them in the
# script's order, and no map is printed for it (0.17 printed every map);
# 0.17 has no self probe; SIGUSR1 is the only signal.
SONDE=${SONDE:-./sonde}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
prog='begin { @b[1] = 2; } self:signal:SIGUSR1 { printf("first"); }
self:signal:SIGUSR1 { printf(" second %s\n", probe); exit(); }'
SONDE_COMPAT= "$SONDE" -e "$prog" >"$tmp/out" 2>&1 &
pid=$!
for i in $(seq 100); do grep -q Attached "$tmp/out" && break; sleep 0.1; done
kill -USR1 $pid
for i in $(seq 50); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
kill -0 $pid 2>/dev/null && { echo "SIGUSR1 did not end the run (exit() in the self probe)"; kill -KILL $pid; fail=1; }
wait $pid; rc=$?
want=$'Attached 3 probes\nfirst second self:signal:SIGUSR1\n\n\n@b[1]: 2'
[ $rc = 0 ] && [ "$(cat "$tmp/out")" == "$want" ] ||
	{ printf 'self probes: rc=%s\n--- want\n%s\n--- got\n%s\n' $rc "$want" "$(cat "$tmp/out")"; fail=1; }
check_error() { # WANT-SUBSTRING COMPAT PROGRAM
	local got; got=$(SONDE_COMPAT=$2 "$SONDE" -e "$3" 2>&1); local rc=$?
	[ $rc = 1 ] && grep -qF -- "$1" <<<"$got" || { echo "want '$1' (status 1), got $rc: $got"; fail=1; }
}
check_error "ERROR: unknown probe type 'self' in 'self:signal:SIGUSR1'" 0.17 'self:signal:SIGUSR1 { exit(); }'
check_error 'stdin:1:1-20: ERROR: self:signal:SIGUSR2: the self probe is self:signal:SIGUSR1' "" \
	'self:signal:SIGUSR2 { exit(); }'
exit $fail
