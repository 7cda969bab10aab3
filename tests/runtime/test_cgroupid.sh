#!/usr/bin/env bash
# cgroupid("PATH") is the cgroup's id, which on cgroupfs is the directory's
# inode number: compare with stat(1) on the cgroup2 mount, and with the
# cgroup builtin for a task in that cgroup (the root here, when sonde runs
# in it).  A path without a file handle is bpftrace's error.
SONDE=${SONDE:-./sonde}
cd "$(dirname "$0")/../.." || exit 1
mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
[ -n "$mnt" ] || { echo "no cgroup2 mount"; exit 77; }
want=$(stat -c %i "$mnt")
got=$("$SONDE" -q -e "BEGIN { printf(\"%d\\n\", cgroupid(\"$mnt\")); exit(); }" 2>&1 | head -1)
[ "$got" = "$want" ] || { echo "cgroupid($mnt): $got, want $want"; exit 1; }
# the cgroup sonde runs in, as the cgroup builtin sees it
rel=$(sed -n 's/^0:://p' /proc/self/cgroup)
if [ -d "$mnt$rel" ]; then
	out=$("$SONDE" -q -e "BEGIN { printf(\"%d\\n\", cgroup == cgroupid(\"$mnt$rel\")); exit(); }" 2>&1 | head -1)
	[ "$out" = 1 ] || { echo "cgroup != cgroupid($mnt$rel): $out"; exit 1; }
fi
err=$("$SONDE" -e 'BEGIN { print(cgroupid("/no/such/cgroup")); exit(); }' 2>&1)
[ $? = 1 ] || { echo "missing path did not fail"; exit 1; }
grep -q 'ERROR: Failed to get `cgroupid` for path: "/no/such/cgroup": No such file or directory' <<<"$err" ||
	{ echo "message: $err"; exit 1; }
exit 0
