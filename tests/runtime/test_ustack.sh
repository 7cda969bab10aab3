#!/usr/bin/env bash
# Symbolized user stacks and usym()/uaddr(), printed at exit after the
# traced process is gone (sonde keeps its maps while it lives); PIE and
# non-PIE; and a 64 KiB buf() capture that arrives byte for byte.
SONDE=${SONDE:-./sonde}
P=$PWD/build/progs
fail=0
check() { # name, expected, then sonde arguments (offsets are masked)
	local name=$1 want=$2; shift 2
	local got; got=$("$SONDE" "$@" 2>&1 | sed -E 's/\+[0-9]+$/+N/')
	if [ "$got" != "$want" ]; then
		printf '%s: sonde %s\n--- expected\n%s\n--- got\n%s\n' "$name" "$*" "$want" "$got"; fail=1
	fi
}
for bin in uprobe_target uprobe_target_nopie; do
	check "ustack $bin" "Attaching 1 probe...


@[
    leaf+N
    main+N
]: 2" -e "uprobe:$P/$bin:leaf { @[ustack(2)] = count(); }" -c "$P/$bin 2 200"
done
check "usym uaddr" "Attaching 1 probe...
middle add3


@[middle]: 3" -e "uprobe:$P/uprobe_target_nopie:leaf { @[usym(uaddr(\"middle\"))] = count(); if (arg0 == 0) { printf(\"%s %s\n\", usym(uaddr(\"middle\")), usym(uaddr(\"add3\"))); } }" -c "$P/uprobe_target_nopie 3 200"
# 64 KiB through the ring buffer: printable bytes as is, others \xNN
want=$(/usr/bin/python3 -c '
b = bytearray(ord("A") + i % 26 + (32 if i % 1000 == 999 else 0) for i in range(65536))
b[0:3] = b"\n\x00\xff"
print("".join(chr(c) if 32 <= c < 127 else "\\x%02x" % c for c in b))')
got=$("$SONDE" -q -e "uprobe:$P/uprobe_target:big_buffer { printf(\"%r\n\", buf(arg0, 65536)); }" -c "$P/uprobe_target 1" 2>&1)
if [ "$got" != "$want" ]; then
	echo "64 KiB buf: got ${#got} characters, want ${#want}: ${got:0:80}"; fail=1
fi
exit $fail
