#!/usr/bin/env bash
# uprobe/uretprobe: arguments, retval, func, probe in a PIE and a non-PIE
# binary; FUNC+OFFSET and 0xADDRESS targets; wildcards; library short
# names; -p and -c restrict probes to one process; -l lists functions; bad
# targets fail with one clear error and attach nothing.
SONDE=${SONDE:-./sonde}
P=$PWD/build/progs
fail=0
. "$(dirname "$0")/lib.sh"
for bin in uprobe_target uprobe_target_nopie; do
	check "args $bin" "uprobe:$P/$bin:add3 add3 0 0 0
uretprobe:$P/$bin:add3 add3 100
uprobe:$P/$bin:add3 add3 1 2 -1
uretprobe:$P/$bin:add3 add3 102
uprobe:$P/$bin:add3 add3 2 4 -2
uretprobe:$P/$bin:add3 add3 104" -q -e "
u:$P/$bin:add3 { printf(\"%s %s %d %d %d\n\", probe, func, arg0, arg1, arg2); }
ur:$P/$bin:add3 { printf(\"%s %s %d\n\", probe, func, retval); }" -c "$P/$bin 3"
done
# FUNC+OFFSET: after `add %rsi,%rdi`, arg0 holds a + b = 3i
check "func+off" "

@[uprobe:$P/uprobe_target:add3+3]: 3
@s: 9" -q -e "uprobe:$P/uprobe_target:add3+3 { @[probe] = count(); @s = sum(arg0); }" -c "$P/uprobe_target 3"
addr=0x$(nm "$P/uprobe_target_nopie" | awk '$3 == "leaf" { print $1 }')
check "0xADDRESS" "Attaching 1 probe...


@[uprobe:$P/uprobe_target_nopie:$addr]: 4" -e "uprobe:$P/uprobe_target_nopie:$addr { @[probe] = count(); }" -c "$P/uprobe_target_nopie 4"
check "wildcard" "Attaching 2 probes...


@[main]: 1
@[middle]: 2" -e "uprobe:$P/uprobe_target:m* { @[func] = count(); }" -c "$P/uprobe_target 2" 
check "library short name" "Attaching 1 probe...


@: 5" -e 'uprobe:libc:getppid { @ = count(); }' -c "$P/getppid_loop 5"
# -p: two processes run the same code; only the one given is traced
"$P/uprobe_target" 7 1500 & a=$!
"$P/uprobe_target" 9 1500 & b=$!
sleep 0.1
check "-p" "Attaching 1 probe...


@: 7" -e "uprobe:$P/uprobe_target:add3 { @ = count(); }" -p $a
wait $a $b
check "-l" "uprobe:$P/uprobe_target:main
uprobe:$P/uprobe_target:middle" -l "uprobe:$P/uprobe_target:m*"
# errors: one line (the end column of the range not compared) with a caret, status 1, nothing attached
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
strip -o "$tmp/stripped" "$P/uprobe_target"
err() { # name, expected first line, attach point
	local got st; got=$("$SONDE" -e "$3 { @ = count(); }" 2>&1); st=$?
	if [ $st != 1 ] || [ "$(head -1 <<<"$got" | sed -E 's/^(stdin:1:1)-[0-9]+:/\1:/')" != "$2" ] || [ "$(sed -n 3p <<<"$got" | tr -d '~')" != "^" ]; then
		printf '%s: status %s\n--- expected\n%s\n--- got\n%s\n' "$1" $st "$2" "$got"; fail=1
	fi
}
# a function missing from its file: bpftrace 0.17 drops the attach point
# silently; with nothing left, "No probes to attach" (status 1) and sonde's why
dropped() { # name, expected reason, attach point
	local got st; got=$("$SONDE" -e "$3 { @ = count(); }" 2>&1); st=$?
	if [ $st != 1 ] || [ "$got" != "$(printf 'No probes to attach\nhint: %s' "$2")" ]; then
		printf '%s: status %s\n--- expected\n%s\n--- got\n%s\n' "$1" $st "$2" "$got"; fail=1
	fi
}
err missing "stdin:1:1: ERROR: uprobe target file '/nonexistent/bin' does not exist or is not executable" "uprobe:/nonexistent/bin:main"
err not-elf "stdin:1:1: ERROR: uprobe: /etc/passwd is not an ELF file" "uprobe:/etc/passwd:main"
dropped no-symbol "uprobe: function 'nosuch' not found in $P/uprobe_target (no such symbol)" "uprobe:$P/uprobe_target:nosuch"
dropped stripped "uprobe: function 'add3' not found in $tmp/stripped (no symbols: is the binary stripped?)" "uprobe:$tmp/stripped:add3"
err unknown-lib "stdin:1:1: ERROR: uprobe: 'libnosuch' is not a path, a library the dynamic loader knows (ld.so.cache, /lib, /usr/lib) or a program in \$PATH" "uprobe:libnosuch:foo"
err no-match "stdin:1:1: ERROR: uretprobe: no function in $P/uprobe_target matches 'zz*'" "uretprobe:$P/uprobe_target:zz*"
# bpftrace's messages for an offset past the function and an address in no function
size=$(readelf -Ws "$P/uprobe_target" | awk '$8 == "add3" { print $3; exit }')
err offset "stdin:1:1: ERROR: Offset outside the function bounds ('add3' size is $size)" "uprobe:$P/uprobe_target:add3+$size"
err address "stdin:1:1: ERROR: Could not resolve address: $P/uprobe_target:0x3" "uprobe:$P/uprobe_target:0x3"
# a function symbol of size 0 has no bound to check: refused but under --unsafe (bpftrace's words)
err zero-size "stdin:1:1: ERROR: Could not determine boundary for _init (symbol has size 0). Use --unsafe to force attachment." "uprobe:$P/uprobe_target:_init"
# decimal digits are an address too (bpftrace: uprobe:/bin/bash:10 is 0xa)
err decimal-address "stdin:1:1: ERROR: Could not resolve address: $P/uprobe_target:0xa" "uprobe:$P/uprobe_target:10"
# glibc 2.34+: libpthread.so.0 is a stub, pthread_create is in libc.so.6
stub=$("$SONDE" -l 'uprobe:libpthread:*' 2>/dev/null | head -1 | cut -d: -f2)
libc=$(ldconfig -p | awk '$1 == "libc.so.6" && /x86-64/ { print $NF; exit }')
if [ -n "$stub" ] && [ -z "$("$SONDE" -l "uprobe:$stub:pthread_create" 2>/dev/null)" ]; then
	dropped stub "uprobe: function 'pthread_create' is not in $stub (a stub library) but in $(realpath "$libc"), which it links: glibc 2.34 moved libpthread, libdl, librt and libutil into libc" "uprobe:$stub:pthread_create"
else
	echo "libpthread has pthread_create (glibc before 2.34): stub library message not tested"
fi
got=$("$SONDE" -e "uprobe:$P/uprobe_target:add3 { @ = retval; }" 2>&1)
grep -q "ERROR: retval is only available in return probes" <<<"$got" || { echo "retval in uprobe: $got"; fail=1; }
exit $fail
