#!/usr/bin/env bash
# A map whose keys are provably few is created that small (compile.c:
# size_maps; codegen_map.c: count_keys): @[probe] or @[func] in a probe on
# N attach points holds N keys (at least 8), a map without keys 8, a key
# that varies at run time (pid) anywhere keeps BPFTRACE_MAP_KEYS_MAX.  The
# kernel preallocates every entry (4096 per-CPU ones cost 60-180 ms of
# start-up under the VM lane's emulation).  The sizes are read back from
# the maps' fdinfo while sonde runs; the output does not change, nor what
# a smaller BPFTRACE_MAP_KEYS_MAX keeps.
set -u
cd "$(dirname "$0")/../.."
SONDE=${SONDE:-$PWD/sonde}
T=$PWD/build/progs/uprobe_target
[ -x "$T" ] || { echo "no $T (make build/progs/uprobe_target)"; exit 1; }
fail=0
# sizes PROBES BODY: "max_entries" of sonde's hash maps (types 1 and 5),
# sorted, one line (an fd sonde closes meanwhile is skipped)
sizes() {
	timeout 60 "$SONDE" --unsafe -q -e "$1 { $2 } BEGIN { system(\"for f in /proc/\$PPID/fdinfo/*; do sed -n \\\"/^map_type:.[15]\$/,/^max_entries/s/^max_entries:.//p\\\" \$f 2>/dev/null; done | sort -n | tr \\\"\\\\\\\\n\\\" \\\" \\\"\"); exit(); }" 2>&1 | head -1
}
want() { # name got want
	[ "$2" = "$3" ] || { echo "$1: max_entries '$2', want '$3'"; fail=1; }
}
n=$(ls -d /sys/kernel/tracing/events/syscalls/sys_enter_p* | wc -l)
[ "$n" -gt 8 ] || { echo "only $n sys_enter_p* tracepoints"; exit 1; }
tp='tracepoint:syscalls:sys_enter_p*'
want '@[probe]' "$(sizes "$tp" '@[probe] = count();')" "$n "
want '@[probe, 1]' "$(sizes "$tp" '@[probe, 1] = sum(1);')" "$n "
want '@[probe] = 1 and @[probe]++' "$(sizes "$tp" '@[probe] = 1; @[probe]++;')" "$((2 * n)) "
want '@ (no key)' "$(sizes "$tp" '@ = count();')" "8 "
want '@[1]' "$(sizes "$tp" '@[1] = count();')" "$n "
want '@[pid]' "$(sizes "$tp" '@[pid] = count();')" "4096 "
want '@[probe] and @[comm]' "$(sizes "$tp" '@[probe] = count(); @[comm] = count();')" "4096 "
want '@[probe, pid]' "$(sizes "$tp" '@[probe, pid] = count();')" "4096 "
want '@[func]' "$(sizes "uprobe:$T:add3, uprobe:$T:big_buffer" '@[func] = count();')" "8 "
want 'two maps' "$(sizes "$tp" '@a[probe] = count(); @b[comm] = count();')" "$n 4096 "
# BPFTRACE_MAP_KEYS_MAX below the bound still rules: a map that fills
# keeps what it kept before
got=$(BPFTRACE_MAP_KEYS_MAX=3 sizes "$tp" '@[probe] = count();')
want 'BPFTRACE_MAP_KEYS_MAX=3' "$got" "3 "
# the output: every function's count, and with one key allowed one of them
out=$("$SONDE" -e "uprobe:$T:add3, uprobe:$T:leaf, uprobe:$T:big_buffer { @[func] = count(); }" -c "$T 3" 2>&1 |
	grep '^@' | sort)
exp=$(printf '@[add3]: 3\n@[big_buffer]: 1\n@[leaf]: 3')
[ "$out" = "$exp" ] || { printf 'uprobe @[func]: got\n%s\nwant\n%s\n' "$out" "$exp"; fail=1; }
out=$(BPFTRACE_MAP_KEYS_MAX=1 "$SONDE" -e "uprobe:$T:add3, uprobe:$T:leaf { @[func] = count(); }" -c "$T 3" 2>&1 |
	grep -c '^@')
[ "$out" = 1 ] || { echo "BPFTRACE_MAP_KEYS_MAX=1: $out keys printed, want 1"; fail=1; }
exit $fail
