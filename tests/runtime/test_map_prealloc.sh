#!/usr/bin/env bash
# Per-CPU hash maps (count(), sum(), ...) are allocated at run time from
# Linux 6.1 on (BPF_F_NO_PREALLOC, flag 0x1): preallocating is one per-CPU
# allocation per entry, 60-180 ms of start-up in the VM lane.  Before 6.1
# the kernel wants them preallocated (a perf_event program refuses, others
# warn).  Plain hash maps stay preallocated.  The flags are read back from
# the maps' fdinfo while sonde runs; a profile program (NMI) then counts
# into such a map.
set -u
cd "$(dirname "$0")/../.."
SONDE=${SONDE:-$PWD/sonde}
fail=0
IFS=. read -r major minor _ < <(uname -r)
want_percpu=0x1
[ "$major" -lt 6 ] || { [ "$major" = 6 ] && [ "$minor" -lt 1 ]; } && want_percpu=0x0
flags() { # map type: the map_flags of sonde's maps of that type
	printf 'BEGIN { @c = count(); @h[1] = 2; system("grep -h -A4 \\"^map_type:.%s$\\" /proc/$PPID/fdinfo/* 2>/dev/null | sed -n \\"s/^map_flags:.//p\\" | sort -u"); exit(); }' "$1"
}
got=$(timeout 30 "$SONDE" --unsafe -q -e "$(flags 5)" 2>&1 | head -1)
[ "$got" = "$want_percpu" ] || { echo "per-CPU hash map_flags '$got', want $want_percpu"; fail=1; }
got=$(timeout 30 "$SONDE" --unsafe -q -e "$(flags 1)" 2>&1 | head -1)
[ "$got" = 0x0 ] || { echo "hash map_flags '$got', want 0x0"; fail=1; }
out=$(timeout 30 "$SONDE" -e 'profile:hz:997 { @[cpu] = count(); } interval:ms:300 { exit(); }' 2>&1)
grep -q '^@\[[0-9]*\]: [0-9]' <<<"$out" || { echo "profile with a per-CPU count: $out"; fail=1; }
exit $fail
