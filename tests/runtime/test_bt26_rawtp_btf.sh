#!/usr/bin/env bash
# bpftrace 0.26's rawtracepoint with BTF: where the kernel has the
# tracepoint's btf_trace_NAME, the probe is a tp_btf program and args.NAME
# are the tracepoint's arguments, typed (args.next.comm of sched_switch is
# the task switched in: -c's sleep), arg0.. the same values; `probe` names
# the module.  Misuse: an argument past the tracepoint's, a name it lacks, a
# module without it.  -lv lists the arguments.  Under SONDE_COMPAT=0.17, a
# raw tracepoint without args.
# socket_cookie(args.sk) of tcp_probe gives the cookies a loopback TCP
# connection's two ends read with getsockopt(SO_COOKIE) (tests/progs/
# tcp_cookies.py).
SONDE=${SONDE:-./sonde}
fail=0
check() { # what, regex, output
	grep -qE "$2" <<<"$3" || { printf '%s:\n%s\n' "$1" "$3"; fail=1; }
}
"$SONDE" --info 2>&1 | grep -q 'tp_btf (rawtracepoint with BTF args): yes' ||
	{ echo "SKIP: this kernel does not load tp_btf programs"; exit 0; }
# (-c's child runs as "sonde" until its exec)
prog='rawtracepoint:sched_switch /args.next.pid == (int32)cpid && args.next.comm == "sleep"/ {
	printf("%s %s %d %d\n", probe, args.next.comm, arg2 == (uint64)args.next, args.prev_state >= 0);
	exit();
}'
out=$(timeout 30 "$SONDE" -c 'sleep 0.3' -e "$prog" 2>&1)
check "args of sched_switch" '^rawtracepoint:vmlinux:sched_switch sleep 1 1$' "$out"
out=$(timeout 30 "$SONDE" -e 'rt:vmlinux:sched_switch { print(arg4); exit(); }' 2>&1)
check "arg past the arguments" 'ERROR: arg4 is not available in rawtracepoint probes' "$out"
out=$(timeout 30 "$SONDE" -e 'rawtracepoint:sched_switch { print(args.nope); exit(); }' 2>&1)
check "unknown argument" '^stdin:1:30-45: ERROR: sched_switch has no parameter .nope.$' "$out"
out=$(timeout 30 "$SONDE" -e 'rawtracepoint:nosuchmod:sched_switch { exit(); }' 2>&1)
check "missing module" 'ERROR: No matches for rawtracepoint nosuchmod:sched_switch' "$out"
out=$(SONDE_COMPAT=0.17 timeout 30 "$SONDE" -e 'rawtracepoint:sched_switch { print(args.next); exit(); }' 2>&1)
check "0.17's args" 'args is only available in tracepoint and uprobe probes, not in rawtracepoint' "$out"
out=$(SONDE_COMPAT=0.17 timeout 30 "$SONDE" -c 'sleep 0.3' -e 'rawtracepoint:sched_switch { printf("%s\n", probe); exit(); }' 2>&1)
check "0.17's raw tracepoint" '^rawtracepoint:sched_switch$' "$out"
# -lv: the arguments from BTF, without the probes' first parameter (__data)
out=$(timeout 30 "$SONDE" -lv 'rawtracepoint:sched_switch' 2>&1)
want=$(printf '%s\n' 'rawtracepoint:sched_switch' '    bool preempt' '    struct task_struct * prev' \
	'    struct task_struct * next' '    unsigned int prev_state')
[ "$out" = "$want" ] || { printf -- '-lv rawtracepoint:sched_switch:\n%s\n' "$out"; fail=1; }
out=$(SONDE_COMPAT=0.17 timeout 30 "$SONDE" -lv 'rawtracepoint:sched_switch' 2>&1)
[ "$out" = 'rawtracepoint:sched_switch' ] || { printf -- '0.17 -lv:\n%s\n' "$out"; fail=1; }
out=$(timeout 30 "$SONDE" -c 'python3 tests/progs/tcp_cookies.py' \
	-e 'rawtracepoint:tcp_probe /comm == "python3"/ { @[socket_cookie(args.sk)] = count(); }' 2>&1)
cookies=$(sed -n 's/^cookie \([0-9]*\)$/\1/p' <<<"$out")
[ "$(wc -w <<<"$cookies")" = 2 ] || { printf 'tcp_cookies.py:\n%s\n' "$out"; fail=1; }
for c in $cookies; do
	check "socket_cookie of $c" "^@\[$c\]: [0-9]+$" "$out"
done
exit $fail
