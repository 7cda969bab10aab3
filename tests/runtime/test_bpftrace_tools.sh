#!/usr/bin/env bash
# bpftrace's own tools (Debian's bpftrace package: /usr/sbin/*.bt) run
# unchanged under sonde wherever this kernel has their probes: each is
# compiled, attached, run for 1 s, stopped with SIGINT and must exit 0
# with no ERROR.  A tool that cannot run here must fail for its stated
# reason (listed below and printed); anything else fails the test.
SONDE=${SONDE:-./sonde}
ls /usr/sbin/*.bt >/dev/null 2>&1 || { echo "no /usr/sbin/*.bt (apt-get install bpftrace)"; exit 77; }
# tool: the message that says why it cannot run here
declare -A cannot=(
	[loads]="Failed to resolve kernel symbol: avenrun" # data symbol absent from kallsyms (no CONFIG_KALLSYMS_ALL); bpftrace fails too
	# TASK_RUNNING is a macro of the kernel's own linux/sched.h: no kernel
	# headers here (/lib/modules/RELEASE/build); bpftrace fails too (clang
	# errors on the UAPI header).  Run below with a kernel tree given.
	[runqlat]="Unknown identifier: 'TASK_RUNNING'"
	# 6.18's struct cfs_rq has no nr_running (BTF; the script's own struct
	# is #ifndef BPFTRACE_HAVE_BTF): bpftrace fails with the same message
	[runqlen]="does not contain a field named 'nr_running'"
)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0 ran=() unable=()
own_error='^(ERROR|[^ ]+:[0-9]+:[0-9]+(-[0-9]+)?: ERROR):'
for f in /usr/sbin/*.bt; do
	n=$(basename "$f" .bt)
	# once attached (or failed), 1 s of running, then SIGINT
	"$SONDE" "$f" >"$tmp/out" 2>&1 </dev/null &
	pid=$!
	for i in $(seq 300); do grep -q '^Attaching' "$tmp/out" && break; kill -0 $pid 2>/dev/null || break; sleep 0.1; done
	sleep 1
	kill -INT $pid 2>/dev/null
	for i in $(seq 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
	kill -KILL $pid 2>/dev/null
	wait $pid; rc=$?
	out=$(cat "$tmp/out")
	if [ $rc = 0 ]; then # stopped by the SIGINT, or ended by itself
		# sonde's own errors only: a traced command line may say ERROR
		if grep -q '^Attaching' <<<"$out" && ! grep -qE "$own_error" <<<"$out"; then
			ran+=("$n"); continue
		fi
	fi
	why=${cannot[$n]:-}
	if [ -z "$why" ] && grep -q 'built without CONFIG_KPROBES' <<<"$out"; then
		why="built without CONFIG_KPROBES"
	fi
	if [ -n "$why" ] && grep -qF "$why" <<<"$out"; then
		unable+=("$n ($why)")
	else
		printf 'FAIL %s: status %s\n%s\n' "$n" "$rc" "$(head -20 <<<"$out")"; fail=1
	fi
done
# runqlat with a kernel tree (BPFTRACE_KERNEL_SOURCE, as bpftrace): its
# TASK_RUNNING then comes from that tree's linux/sched.h
out=$(BPFTRACE_KERNEL_SOURCE=$PWD/tests/compat/kernel_headers timeout 60 "$SONDE" -c "sleep 1" /usr/sbin/runqlat.bt 2>&1)
if grep -q '^Attaching' <<<"$out" && grep -q '^@usecs:' <<<"$out" && ! grep -qE "$own_error" <<<"$out"; then
	ran+=("runqlat(BPFTRACE_KERNEL_SOURCE)")
else
	printf 'FAIL runqlat with BPFTRACE_KERNEL_SOURCE:\n%s\n' "$(head -20 <<<"$out")"; fail=1
fi
echo "ran here (${#ran[@]}): ${ran[*]}"
echo "cannot run here (${#unable[@]}):"
printf '  %s\n' "${unable[@]}"
exit $fail
