#!/usr/bin/env bash
# USDT: probes in an executable and in a shared library, guarded by
# semaphores the kernel sets (sdt_target prints how many guarded probes
# ran), arguments from registers, constants and memory operands, -p with
# `usdt:*`, -l; CPython 3.11's gc__start and audit probes.
SONDE=${SONDE:-./sonde}
P=$PWD/build/progs
PY=/usr/bin/python3.11
fail=0
. "$(dirname "$0")/lib.sh"
# -8@%rbx -8@%rax -4@$42 -8@24(%rsp,%rdx) -2@$-7, then the library's -4@%edi -4@%eax
out=$("$SONDE" -e "
usdt:$P/sdt_target:sonde:tick { printf(\"%s %d %d %d %d %d\n\", probe, arg0, arg1, arg2, arg3, arg4); }
usdt:$P/sdt_target:plain { printf(\"plain %d\n\", arg0); }
usdt:$P/libsdt_lib.so:ping { printf(\"%s %d %d\n\", probe, arg0, arg1); }" -c "$P/sdt_target 2" 2>&1)
grep -qx "enabled=2 lib=2" <<<"$out" || { echo "semaphores not set: $out"; fail=1; }
want="Attaching 3 probes...
usdt:$P/sdt_target:sonde:tick 0 -1 42 6 -7
plain 0
usdt:$P/libsdt_lib.so:sonde_lib:ping 1 -1
usdt:$P/sdt_target:sonde:tick 1 -2 42 6 -7
plain 10
usdt:$P/libsdt_lib.so:sonde_lib:ping 2 -2"
[ "$(grep -v '^enabled=' <<<"$out")" = "$want" ] || { printf 'args:\n%s\n--- want\n%s\n' "$out" "$want"; fail=1; }
# without sonde the guarded probes stay off
[ "$("$P/sdt_target" 2)" = "enabled=0 lib=0" ] || { echo "semaphores left set"; fail=1; }
check "-l binary" "usdt:$P/sdt_target:sonde:plain
usdt:$P/sdt_target:sonde:tick" -l "usdt:$P/sdt_target:*"
"$P/sdt_target" 3 1500 >/dev/null & pid=$!
sleep 0.2
# through the process's root, as bpftrace names them
check "-p -l" "usdt:/proc/$pid/root$P/libsdt_lib.so:sonde_lib:ping
usdt:/proc/$pid/root$P/sdt_target:sonde:plain
usdt:/proc/$pid/root$P/sdt_target:sonde:tick" -p $pid -l 'usdt:*'
check "-p usdt:*" "Attaching 2 probes...
1 2 3 " -p $pid -e 'usdt:*:ping { printf("%d ", arg0); } END { printf("\n"); }'
wait $pid
ap="usdt:$P/sdt_target:nosuch"
# dropped, as bpftrace 0.17 drops it (the rest would run); nothing left: its words, then why
check "no probe" "No probes to attach
hint: usdt: no probe matches '$ap' (sonde -l 'usdt:BINARY:*' lists them)" -e "$ap { exit(); }"
# constants keep their size and sign; the notes must hold the constants
# (SIZE@$CONST) for this to test anything
notes=$(readelf -n "$P/usdt_consts" | grep -c 'Arguments: .*@\$')
[ "$notes" = 5 ] || { echo "usdt_consts: want 5 notes with constants, readelf shows $notes"; fail=1; }
check "usdt constants" "Attaching 3 probes...
-16 240 -4096 61936 -202182160 4092785136
-5000000000000 18000000000000000000
240 4092785136 61936 -16 -3600 -202182160" -c "$P/usdt_consts" -e "
usdt:$P/usdt_consts:sonde_test:consts,usdt:$P/usdt_consts:sonde_test:lits {
	printf(\"%ld %ld %ld %ld %ld %ld\n\", arg0, arg1, arg2, arg3, arg4, arg5); }
usdt:$P/usdt_consts:sonde_test:wide { printf(\"%ld %lu\n\", arg0, arg1); }"
# one marker inlined twice: one probe, two locations, every hit counted
[ "$(readelf -n "$P/usdt_consts" | grep -c 'Name: twice')" = 2 ] || { echo "usdt_consts: twice is not at two places"; fail=1; }
check "usdt two locations" "Attaching 3 probes...
1 2 1 2 1 2 


@hits: 6" -c "$P/usdt_consts 3" -e "usdt:$P/usdt_consts:sonde_test:twice { printf(\"%d \", arg0); @hits = count(); }
END { printf(\"\n\"); }"
# semaphores: per process with -p (only that process's guarded probes run),
# per file without (every process running the binary, including one started
# before sonde), with or without --usdt-file-activation, as bpftrace 0.17
# does on a kernel with uprobe reference counters
activation() { # sonde options... -> "A-enabled B-enabled"
	local a b s out=$(mktemp)
	"$P/sdt_target" 3 3000 >"$out.a" & a=$!
	"$P/sdt_target" 3 3000 >"$out.b" & b=$!
	"$SONDE" "${@//PID_A/$a}" -e "usdt:$P/sdt_target:sonde:tick { @ = count(); }" >"$out" 2>&1 & s=$!
	for _ in $(seq 100); do grep -q Attaching "$out" && break; sleep 0.05; done
	wait $a $b
	kill -INT $s 2>/dev/null; wait $s
	echo "$(cut -d' ' -f1 "$out.a") $(cut -d' ' -f1 "$out.b")"
	rm -f "$out" "$out.a" "$out.b"
}
for opts in "-p PID_A" "--usdt-file-activation -p PID_A"; do
	got=$(activation $opts)
	[ "$got" = "enabled=3 enabled=0" ] || { echo "semaphore per process ($opts): $got"; fail=1; }
done
for opts in "" "--usdt-file-activation"; do
	got=$(activation $opts)
	[ "$got" = "enabled=3 enabled=3" ] || { echo "semaphore per file ($opts): $got"; fail=1; }
done
if [ ! -x $PY ] || ! "$SONDE" -l "usdt:$PY:*" | grep -q gc__start; then
	echo "no $PY with USDT probes"; exit $fail
fi
# CPython: gc.collect() N times adds N generation-2 collections; open()
# N times adds N "open" audit events (startup adds its own: compare)
count() { # N -> "gcs opens"
	"$SONDE" -q -e "usdt:$PY:python:gc__start /arg0 == 2/ { @g = count(); }
usdt:$PY:python:audit /str(arg0) == \"open\"/ { @o = count(); }" -c "$PY -c 'import gc
for i in range($1): gc.collect(); open(\"/etc/hostname\").close()'" 2>&1 |
		awk '/^@g: / { g = $2 } /^@o: / { o = $2 } END { print g + 0, o + 0 }'
}
read -r g0 o0 <<<"$(count 0)"
read -r g7 o7 <<<"$(count 7)"
if [ "$((g7 - g0))" != 7 ] || [ "$((o7 - o0))" != 7 ]; then
	echo "python: gc $g0 -> $g7, open $o0 -> $o7 (want +7 each)"; fail=1
fi
exit $fail
