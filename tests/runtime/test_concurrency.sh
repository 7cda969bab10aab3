#!/usr/bin/env bash
# count() and sum() are exact when two CPUs update the same keyless map:
# two processes pinned to CPU 0 and CPU 1 make N getppid calls each.
SONDE=${SONDE:-./sonde}
cd "$(dirname "$0")/../.." || exit 1
N=200000
command -v taskset >/dev/null || { echo "taskset missing"; exit 77; }
[ "$(nproc)" -ge 2 ] || { echo "needs 2 CPUs"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cc -O1 -o "$tmp/sonde_gpp" tests/progs/getppid_loop.c || exit 77
cat >"$tmp/run.sh" <<EOS
taskset -c 0 "$tmp/sonde_gpp" $N & taskset -c 1 "$tmp/sonde_gpp" $N & wait
EOS
out=$("$SONDE" -c "/bin/bash $tmp/run.sh" -e 'tracepoint:syscalls:sys_enter_getppid /comm == "sonde_gpp"/ { @ = count(); @s = sum(1); @k[cpu] = count(); }' 2>&1)
want=$((2 * N))
grep -qx "@: $want" <<<"$out" && grep -qx "@s: $want" <<<"$out" &&
	grep -qx "@k\[0\]: $N" <<<"$out" && grep -qx "@k\[1\]: $N" <<<"$out" && exit 0
echo "want @ = @s = $want, @k[0] = @k[1] = $N; got:"; printf '%s\n' "$out"
exit 1
