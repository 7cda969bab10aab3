#!/usr/bin/env bash
# What start-up asks of the kernel (strace's view of sonde's bpf() calls).
# sonde makes its own map creates and program loads: no feature-probe
# program loads before the first map (libbpf's bpf_map_create runs two),
# and RLIMIT_MEMLOCK is left alone where the kernel charges BPF memory to
# the memory cgroup (5.11+) and never refuses a map for the limit, and a
# program with loops loads its BTF without a probe load before it.
# The event ring buffer's default size follows what the script can send:
# one page when its only records are exit()'s from BEGIN/END (a few 16-byte
# records; creating, mapping and unmapping 512 KiB would cost such a run
# about 1 ms), 512 KiB when BEGIN/END print, 16 MiB when other probes send
# events.  The size is read from strace's view of the map's creation.
set -u
SONDE=${SONDE:-./sonde}
command -v strace >/dev/null || { echo "SKIP: strace not installed"; exit 0; }
fail=0
T=$(mktemp) || exit 1
trap 'rm -f "$T"' EXIT

ringbuf_bytes() {
	strace -qq -f -e trace=bpf -e signal=none -o "$T" timeout 30 "$SONDE" "$@" >/dev/null 2>&1
	sed -n 's/.*map_type=BPF_MAP_TYPE_RINGBUF, .*max_entries=\([0-9]*\).*/\1/p' "$T" | head -1
}

want() { # WANT SONDE-ARGS...
	local want=$1 got
	shift
	got=$(ringbuf_bytes "$@")
	[ "$got" == "$want" ] || { echo "FAIL: sonde $*: ring buffer of '$got' bytes, want $want"; fail=1; }
}

want 4096 -e 'BEGIN { exit(); }'
want 4096 -e 'BEGIN { exit(); } END { exit(); }'
want 4096 -e 'BEGIN { @a = 1; exit(); }' # END's map printing reads the map itself
want 524288 -e 'BEGIN { printf("x\n"); exit(); }'
want 524288 -e 'BEGIN { exit(); } END { printf("end\n"); }'
want 16777216 -e 'tracepoint:syscalls:sys_enter_getpid { exit(); } BEGIN { system("true"); }' --unsafe
# the first bpf() call is the first map's creation
strace -qq -f -e trace=bpf,setrlimit,prlimit64 -e signal=none -o "$T" "$SONDE" -e 'BEGIN { exit(); }' >/dev/null 2>&1
first=$(grep -m1 -o 'bpf(BPF_[A-Z_]*' "$T")
[ "$first" == "bpf(BPF_MAP_CREATE" ] || { echo "FAIL: the first bpf() call is $first, want a map create"; grep bpf "$T" | head -3; fail=1; }
if grep -q MEMLOCK "$T"; then echo "FAIL: RLIMIT_MEMLOCK changed on a memcg kernel: $(grep MEMLOCK "$T")"; fail=1; fi
# a program with a loop loads its func_info BTF with sonde's own bpf()
# call too: libbpf's btf__load_into_kernel made a memcg probe load first,
# so the script's own program is the only program load (for loops are
# bpftrace 0.26's: the generation is set whatever the caller's SONDE_COMPAT)
env -u SONDE_COMPAT strace -qq -f -e trace=bpf -e signal=none -o "$T" "$SONDE" -e 'BEGIN { for ($i : 0..3) { @a += $i; } exit(); }' >/dev/null 2>&1
loads=$(grep -o 'bpf(BPF_[A-Z_]*LOAD' "$T" | tr '\n' ' ')
[ "$loads" == "bpf(BPF_BTF_LOAD bpf(BPF_PROG_LOAD " ] || { echo "FAIL: a loop's loads are '$loads', want one BTF load, then one program load"; fail=1; }

# the page is enough: exit's record arrives, the run ends at once with the
# map printed, and nothing is reported lost
out=$(timeout 10 "$SONDE" -e 'BEGIN { @a = 5; exit(); } END { exit(); }' 2>&1); rc=$?
[ $rc -eq 0 ] || { echo "FAIL: exit() ended with $rc: $out"; fail=1; }
case $out in *"@a: 5"*) ;; *) echo "FAIL: no map printed: $out"; fail=1 ;; esac
case $out in *[Ll]ost*) echo "FAIL: events lost: $out"; fail=1 ;; esac
exit $fail
