#!/usr/bin/env bash
# sonde dtrace -x bufsize / -b: the event ring holds bufsize bytes per CPU
# (dtrace's principal buffers are per CPU; sonde's ring is one, rounded up to
# a power of two).  Read from the ring map's fdinfo (map_type 27) in sonde's
# own process, by system() from BEGIN.
set -u
cd "$(dirname "$0")"
SONDE=${SONDE:-$PWD/../../sonde}
ncpu=$(awk -F, '{ n = 0; for (i = 1; i <= NF; i++) { split($i, r, "-"); n += (r[2] == "" ? 1 : r[2] - r[1] + 1) } print n }' /sys/devices/system/cpu/possible)
ring() { # sonde dtrace options...: the ring's bytes
	"$SONDE" dtrace -w -q "$@" -n 'BEGIN { system("grep -h -A5 \"^map_type:\t27$\" /proc/$PPID/fdinfo/* 2>/dev/null | grep max_entries"); exit(0); }' 2>&1 |
		awk '/max_entries/ { print $2 }'
}
pow2() { local s=4096; while [ $s -lt "$1" ]; do s=$((s * 2)); done; echo $s; }
for b in 64k:65536 1m:1048576; do
	bytes=${b#*:} b=${b%:*}
	want=$(pow2 $((bytes * ncpu)))
	got=$(ring -x bufsize=$b)
	[ "$got" == "$want" ] || { echo "-x bufsize=$b, $ncpu CPUs: ring of $got bytes, expected $want"; exit 1; }
done
got=$(ring -b 128k)
want=$(pow2 $((131072 * ncpu)))
[ "$got" == "$want" ] || { echo "-b 128k: ring of $got bytes, expected $want"; exit 1; }
exit 0
