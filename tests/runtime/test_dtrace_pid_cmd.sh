#!/usr/bin/env bash
# pid$target probes on a -c command's libraries: the command is held before
# its exec, when it maps none of them yet, so sonde reads what it will map
# (its DT_NEEDED, theirs...) as dtrace matches the libraries of the started
# process; and a function named in both .dynsym and a debug file's .symtab
# (libc's malloc with libc6-dbg) is one probe, listed once.
SONDE=${SONDE:-./sonde}
fail=0
expect() { # name, expected, got
	[ "$2" == "$3" ] || { printf '%s\n--- expected\n%s\n--- got\n%s\n' "$1" "$2" "$3"; fail=1; }
}
# ls calls malloc in libc.so.6 (not in its own file) at least once
got=$(timeout 60 "$SONDE" dtrace -q -n 'pid$target::malloc:entry { @n[probemod] = count(); }
	END { printa("%s %@d\n", @n); }' -c 'ls /' 2>&1 | awk '$1 == "libc.so.6" && $2 > 0 { print $1 }')
expect "pid\$target::malloc:entry on -c's libc" "libc.so.6" "$got"

got=$(timeout 60 "$SONDE" dtrace -l -n 'pid$target::malloc:' -c 'ls /' 2>&1 | awk 'NR > 1 { print $3, $4, $5 }')
expect "malloc listed once" "libc.so.6 malloc entry
libc.so.6 malloc return" "$got"
exit $fail
