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

echo "dscripts: $passed passed, $failed failed, $skipped skipped"
