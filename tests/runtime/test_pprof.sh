#!/usr/bin/env bash
# -f pprof and sonde flamegraph --pprof: gzipped profile.proto read back by
# Debian's `go tool pprof` (golang-go).  flame_target spends ~90% of its CPU
# in hot_function: it must be the hottest function of its profile, its
# mapping must carry the ELF's build id, and off-CPU time is in nanoseconds.
SONDE=${SONDE:-./sonde}
command -v go >/dev/null || { echo "go (golang-go) not installed"; exit 77; }
tmp=$(mktemp -d /tmp/sonde-pprof.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { printf 'FAIL: %s\n--- output\n%s\n' "$1" "$out"; exit 1; }
top() { go tool pprof -top "$@" 2>&1; }
# the function of -top's first row (the largest flat value)
hottest() { awk 'seen { print $NF; exit } /flat%/ { seen = 1 }' <<<"$1"; }

"$SONDE" flamegraph --pprof "$tmp/cpu.pb.gz" -- build/progs/flame_target 1 2>"$tmp/err" ||
	{ out=$(cat "$tmp/err"); fail "flamegraph --pprof failed"; }
[ "$(head -c2 "$tmp/cpu.pb.gz" | od -An -tx1 | tr -d ' ')" = 1f8b ] || fail "not gzipped"
out=$(top "$tmp/cpu.pb.gz")
grep -q '^Type: samples' <<<"$out" || fail "sample type is not samples"
[ "$(hottest "$out")" = hot_function ] || fail "hottest function is not hot_function"
# the build id of flame_target's mapping is the one in its ELF notes
bid=$(readelf -n build/progs/flame_target | sed -n 's/.*Build ID: //p')
out=$(go tool pprof -raw "$tmp/cpu.pb.gz" 2>&1)
grep -qE "flame_target $bid" <<<"$out" || fail "no mapping of flame_target with build id $bid"

# kernel stacks: a mapping [kernel.kallsyms], 7 calls of getppid counted
"$SONDE" -q -f pprof -o "$tmp/k.pb.gz" -c 'build/progs/getppid_loop 7' \
	-e 'tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { @calls[kstack] = count(); }' >/dev/null 2>&1 ||
	fail "-f pprof of kernel stacks failed"
out=$(go tool pprof -raw "$tmp/k.pb.gz" 2>&1)
grep -q '\[kernel.kallsyms\]' <<<"$out" || fail "no kernel mapping"
out=$(top "$tmp/k.pb.gz")
grep -q 'Total samples = 7 *$' <<<"$out" || fail "not the 7 getppid calls"

# -f pprof of a script: the stack maps into the file, the others on stdout as text
out=$("$SONDE" -f pprof -o "$tmp/s.pb.gz" -c 'build/progs/flame_target 1' \
	-e 'profile:hz:199 /pid == cpid/ { @cpu[comm, ustack] = count(); @n = count(); }' 2>&1) ||
	fail "-f pprof failed"
grep -q '^@n: [0-9]' <<<"$out" || fail "@n not printed as text"
out=$(top "$tmp/s.pb.gz")
[ "$(hottest "$out")" = hot_function ] || fail "-f pprof: hottest function is not hot_function"
grep -q '^Type: cpu' <<<"$out" || fail "-f pprof: @cpu's sample type is not cpu"
out=$(go tool pprof -tags "$tmp/s.pb.gz" 2>&1)
grep -q 'key0:' <<<"$out" && grep -q 'flame_target' <<<"$out" || fail "comm is not label key0"

# off-CPU: nanoseconds, sleep 0.3 charged at least 250 ms (the wake-up's
# switch counts even when the sampler is the task leaving the CPU:
# test_sched_self.sh)
"$SONDE" flamegraph --off-cpu --pprof "$tmp/off.pb.gz" -- sleep 0.3 2>"$tmp/err" ||
	{ out=$(cat "$tmp/err"); fail "--off-cpu --pprof failed"; }
out=$(go tool pprof -top -unit=ms "$tmp/off.pb.gz" 2>&1)
ms=$(sed -nE 's/.*Total samples = ([0-9.]+)ms.*/\1/p' <<<"$out")
python3 -c "import sys; sys.exit(0 if float('${ms:-0}') >= 250 else 1)" || fail "sleep 0.3 charged ${ms:-?} ms"
out=$(go tool pprof -raw "$tmp/off.pb.gz" 2>&1)
grep -q 'off_cpu/nanoseconds' <<<"$out" || fail "off-CPU sample type is not off_cpu/nanoseconds"

# bad input
out=$("$SONDE" -f pprof -e 'BEGIN { exit() }' 2>&1) && fail "-f pprof without -o accepted"
grep -q 'name its file with -o' <<<"$out" || fail "no message for -f pprof without -o"
out=$("$SONDE" flamegraph --pprof "$tmp/x" --from-folded - </dev/null 2>&1) && fail "--pprof --from-folded accepted"
grep -q 'folded text has no addresses' <<<"$out" || fail "no message for --pprof --from-folded"
out=$("$SONDE" -f pprof -o /nonexistent/dir/p.pb.gz -e 'BEGIN { exit() }' 2>&1) && fail "a bad -o accepted"
grep -q "cannot write '/nonexistent/dir/p.pb.gz'" <<<"$out" || fail "no message for a bad -o"
exit 0
