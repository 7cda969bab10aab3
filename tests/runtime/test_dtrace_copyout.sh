#!/usr/bin/env bash
# sonde dtrace: copyout()/copyoutstr() (-w) change what a process opens.
# They need bpf_probe_write_user, which a kernel under lockdown (as this
# project's dev VM) refuses: then sonde must say so, naming the probe and
# the helper, fail, and leave nothing attached; elsewhere the write must
# take effect (the process opens /dev/null instead of /dev/nulx).
SONDE=${SONDE:-./sonde}
d=$(dirname "$0")
out=$("$SONDE" dtrace -q -w -s "$d/dtrace_copyout.d" -c 'cat /dev/nulx' 2>&1)
rc=$?
if grep -q "cannot use helper bpf_probe_write_user" <<<"$out"; then
	[ $rc = 1 ] || { echo "refused copyout: exit status $rc, expected 1"; exit 1; }
	grep -q "sys_enter_openat: the kernel's verifier rejected the program at line 6" <<<"$out" ||
		{ echo "refusal should name the probe and line: $out"; exit 1; }
	echo "copyout refused by this kernel (lockdown), as reported: ok"
	exit 0
fi
want=$'/dev/nulX\n/dev/null\nopened'
[ "$out" == "$want" ] || { printf -- '--- want\n%s\n--- got\n%s\n' "$want" "$out"; exit 1; }
exit 0
