#!/usr/bin/env bash
# Per-CPU hash maps (count(), sum(), ...) are preallocated (map_flags 0x0),
# like plain hash maps: allocated at run time (BPF_F_NO_PREALLOC) on this
# 6.18 kernel, pyflame's profile program (pystack keys) kept about one
# sample in three (8-10 of 24-27): a failed update is lost without a trace.  The flags
# are read back from the maps' fdinfo while sonde runs; then a profile
# program counts one new key per sample and every sample must be there (the
# count of keys equals the total of the counts, and is near the rate).
set -u
cd "$(dirname "$0")/../.."
SONDE=${SONDE:-$PWD/sonde}
fail=0
flags() { # map type: the map_flags of sonde's maps of that type
	printf 'BEGIN { @c = count(); @h[1] = 2; system("grep -h -A4 \\"^map_type:.%s$\\" /proc/$PPID/fdinfo/* 2>/dev/null | sed -n \\"s/^map_flags:.//p\\" | sort -u"); exit(); }' "$1"
}
got=$(timeout 30 "$SONDE" --unsafe -q -e "$(flags 5)" 2>&1 | head -1)
[ "$got" = 0x0 ] || { echo "per-CPU hash map_flags '$got', want 0x0"; fail=1; }
got=$(timeout 30 "$SONDE" --unsafe -q -e "$(flags 1)" 2>&1 | head -1)
[ "$got" = 0x0 ] || { echo "hash map_flags '$got', want 0x0"; fail=1; }
# a new key per sample: @n counts samples (one key), @k one key per sample.
# @stop ends the counting when exit() is called: the profile probe is still
# attached while END prints @n and the maps print after it, and a sample
# in between made @k one key more than @n (3-10 of ~990 here, on builds
# with and without preallocation)
out=$(timeout 30 "$SONDE" -e 'profile:hz:997 /@stop == 0/ { @k[nsecs] = count(); @n = count(); }
interval:ms:500 { @stop = 1; exit(); } END { print(@n); clear(@n); }' 2>&1)
n=$(sed -n 's/^@n: //p' <<<"$out" | head -1)
keys=$(grep -c '^@k\[' <<<"$out")
[ -n "$n" ] && [ "$n" -gt 100 ] && [ "$keys" = "$n" ] ||
	{ echo "profile: $n samples, $keys keys kept"; fail=1; }
exit $fail
