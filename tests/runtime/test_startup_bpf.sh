#!/usr/bin/env bash
# What start-up asks of the kernel (strace's view of sonde's bpf() calls).
# sonde makes its own map creates and program loads: no feature-probe
# program loads before the first map (libbpf's bpf_map_create runs two),
# and RLIMIT_MEMLOCK is left alone where the kernel charges BPF memory to
# the memory cgroup (5.11+) and never refuses a map for the limit.
set -u
SONDE=${SONDE:-./sonde}
command -v strace >/dev/null || { echo "SKIP: strace not installed"; exit 0; }
fail=0
T=$(mktemp) || exit 1
trap 'rm -f "$T"' EXIT

# the first bpf() call is the first map's creation
strace -qq -f -e trace=bpf,setrlimit,prlimit64 -e signal=none -o "$T" "$SONDE" -e 'BEGIN { exit(); }' >/dev/null 2>&1
first=$(grep -m1 -o 'bpf(BPF_[A-Z_]*' "$T")
[ "$first" == "bpf(BPF_MAP_CREATE" ] || { echo "FAIL: the first bpf() call is $first, want a map create"; grep bpf "$T" | head -3; fail=1; }
if grep -q MEMLOCK "$T"; then echo "FAIL: RLIMIT_MEMLOCK changed on a memcg kernel: $(grep MEMLOCK "$T")"; fail=1; fi
exit $fail
