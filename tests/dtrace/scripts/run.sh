#!/usr/bin/env bash
# DTraceToolkit-style D scripts (ours), run unchanged under sonde dtrace
# against known workloads; their output is checked line by line for what
# the workload must produce (the scripts trace the whole system, so other
# processes' lines are ignored: workloads run under unique names).
# Prints "dscripts: N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")"
SONDE=${SONDE:-$PWD/../../../sonde}
passed=0 failed=0 skipped=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp /bin/dd "$tmp/dtdd_wl"; cp /bin/cat "$tmp/dtcat_wl"; cp /bin/sleep "$tmp/dtsleep_wl"
DD="$tmp/dtdd_wl if=/dev/zero of=/dev/null bs=1 count=1000 status=none"

run() { # script, dtrace arguments: stdout in $tmp/out, stderr in $tmp/err
	timeout 60 "$SONDE" dtrace -s "$@" >"$tmp/out" 2>"$tmp/err"
}

# expect NAME REGEX...: every extended regex matches a line of the output
expect() {
	local name=$1 re ok=true; shift
	for re in "$@"; do
		grep -qE -- "$re" "$tmp/out" || { echo "FAIL $name: no line matches /$re/"; ok=false; }
	done
	if $ok; then passed=$((passed + 1)); else
		failed=$((failed + 1)); head -20 "$tmp/out"; head -5 "$tmp/err"; fi
}

run syscallbyproc.d -c "$DD"
# 1000 reads and 1000 writes at least (dd reads a few more starting)
n=$(awk '$1 == "dtdd_wl" { print $2 }' "$tmp/out")
expect syscallbyproc '^Tracing\.\.\. Hit Ctrl-C to end\.$' '^PROCESS +SYSCALLS$' \
	"^dtdd_wl +$([ "${n:-0}" -ge 2000 ] && echo "$n")\$"

run syscallbypid.d -c "$DD"
# every (pid, name, call) of the system is a key: on a busy machine the
# aggregation can fill (4096 keys) before the workload's keys arrive
if [ "$(grep -c . "$tmp/out")" -ge 4096 ] && ! grep -q dtdd_wl "$tmp/out"; then
	echo "skip syscallbypid: the aggregation filled with other processes' keys"
	skipped=$((skipped + 1))
else
expect syscallbypid '^    PID CMD +SYSCALL +COUNT$' '^ *[0-9]+ dtdd_wl +write +1000$' \
	'^ *[0-9]+ dtdd_wl +read +10[0-9][0-9]$'
fi

run opensnoop.d -c "$tmp/dtcat_wl /etc/hostname /nonexistent"
expect opensnoop '^  UID     PID COMM +FD PATH$' "^ +$(id -u) +[0-9]+ dtcat_wl +[3-9] /etc/hostname\$" \
	'^ +[0-9]+ +[0-9]+ dtcat_wl +-2 /nonexistent$'

run execsnoop.d -c ./wl_exec.sh
sh_pid=$(awk '$3 == "wl_exec.sh" { print $1 }' "$tmp/out")
expect execsnoop '^    PID    PPID COMM +ARGS$' "^ +[0-9]+ +${sh_pid:-none} echo +/bin/echo( hello world)?\$"

run procsystime.d -c "$DD"
expect procsystime '^Counts,$' '^ +write +1000$' '^ +read +10[0-9][0-9]$' '^Elapsed Times \(us\),$' \
	'^ +write +[0-9]+$'

run schedlat.d -c "$tmp/dtsleep_wl 0.2"
grep -A1 -E '^  dtsleep_wl +$' "$tmp/out" >"$tmp/lat"
cp "$tmp/lat" "$tmp/out"
expect schedlat '^  dtsleep_wl +$' '^ +value  -+ Distribution -+ count *$'

run killsnoop.d -c ./wl_kill.sh
to=$(awk '$1 == "kill" && $3 == "kill" && $4 == 0 { print $5 }' "$tmp/out" | head -1)
expect killsnoop '^WHAT +FROM COMM +SIG +TO RESULT$' "^kill +[0-9]+ kill +0 +${to:-none} 0\$" \
	"^kill +[0-9]+ kill +10 +${to:-none} 0\$" "^signal +[0-9]+ kill +10 +${to:-none} wl_kill.sh\$" \
	"^signal +[0-9]+ kill +17 +${to:-none} wl_kill.sh\$"

run rwbyproc.d -c "$tmp/dtdd_wl if=/dev/zero of=/dev/null bs=100 count=7 status=none"
expect rwbyproc '^PROCESS +CALL +CALLS +BYTES$' '^dtdd_wl +write +7 +700$' '^dtdd_wl +read +[0-9]+ +[0-9]+$'

run errinfo.d -c "$tmp/dtcat_wl /etc/hostname /nonexistent"
expect errinfo '^ +EXEC +SYSCALL +ERRNO  DESC$' '^ +dtcat_wl +openat +2  No such file or directory$' \
	'^ +EXEC +SYSCALL +ERRNO +COUNT$' '^ +dtcat_wl +openat +2 +[1-9][0-9]*$'

run exitsnoop.d -c ./wl_exit.sh
sh_pid=$(awk '$3 == "wl_exit.sh" { print $1 }' "$tmp/out")
expect exitsnoop '^    PID    PPID COMM +REASON$' "^ +[0-9]+ +${sh_pid:-none} sh +exited\$" \
	"^ +[0-9]+ +${sh_pid:-none} sh +killed\$" "^ +${sh_pid:-none} +[0-9]+ wl_exit.sh +exited\$"

run rwsnoop.d -c "$tmp/dtdd_wl if=/dev/zero of=/dev/null bs=100 count=3 status=none"
writes=$(grep -cE '^dtdd_wl +write +1 +100 +100$' "$tmp/out")
expect rwsnoop '^COMM +CALL +FD +ASKED +DONE$' '^dtdd_wl +read +0 +100 +100$' \
	"^dtdd_wl +write +1 +100 +100\$$([ "$writes" = 3 ] || echo " (3 times, not $writes)")"

# rwinfo.d (the DTrace Guide's, an associative array of structs) watches the
# pid given as $1: a cat blocked opening a fifo (not our child, so gone
# once it exits), fed by the -c workload once the probes are attached
mkfifo "$tmp/rwfifo"
cat_pid=$(sh -c "\"$tmp/dtcat_wl\" \"$tmp/rwfifo\" >/dev/null 2>&1 & echo \$!")
run rwinfo.d -c "./wl_rwinfo.sh $tmp/rwfifo $cat_pid" "$cat_pid"
kill "$cat_pid" 2>/dev/null # (gone unless the run failed)
expect rwinfo '^        calls  max bytes  elapsed nsecs$' '^------  -----  ---------  -------------$' \
	'^  read +[1-9][0-9]* +[1-9][0-9]*  [1-9][0-9]*$' '^ write +1 +3000  [1-9][0-9]*$'

# sched:::on-cpu needs the sched_exit_tp tracepoint (Linux 6.16 and later)
if "$SONDE" dtrace -l -n sched:::on-cpu >/dev/null 2>&1; then
	run oncpu.d -c "$tmp/dtsleep_wl 0.1"
	expect oncpu '^On-CPU time \(us\):$' '^  dtsleep_wl +$' '^ +value  -+ Distribution -+ count *$' \
		'^Off-CPU switches:$' '^  dtsleep_wl +[1-9][0-9]*$'
else
	echo "skip oncpu: this kernel has no sched:::on-cpu"
	skipped=$((skipped + 1))
fi

echo "dscripts: $passed passed, $failed failed, $skipped skipped"
