#!/usr/bin/env bash
# The Python code-object cache's maps (runtime/pycode.c): allocated as
# entries come (BPF_F_NO_PREALLOC) unless a walk runs in a perf-event
# program (profile:, in NMI), where they stay preallocated.  Preallocating
# sonde_pycode (10 MiB) was most of a pystack script's start-up.  Checked
# through the map_create calls strace shows, not through a time.
SONDE=${SONDE:-./sonde}
command -v strace >/dev/null && [ -x /usr/bin/python3.11 ] || { echo "no strace or python3.11"; exit 77; }
fail=0
flags() { # script: "name flags" of each sonde_py* map created
	strace -f -e trace=bpf -o /dev/stdout "$SONDE" -q -e "$1" 2>/dev/null |
		grep -E 'BPF_MAP_CREATE.*map_name="sonde_py' |
		sed -E 's/.*map_flags=([^,]*),.*map_name="([a-z_]+)".*/\2 \1/' | sort
}
expect() { # name, expected, got
	[ "$2" == "$3" ] || { printf '%s\n--- expected\n%s\n--- got\n%s\n' "$1" "$2" "$3"; fail=1; }
}
tp=$(flags 'tracepoint:syscalls:sys_enter_clock_nanosleep /pid == 1/ { @[jstack()] = count(); } BEGIN { exit(); }')
prof=$(flags 'profile:hz:99 /pid == 1/ { @[jstack()] = count(); } BEGIN { exit(); }')
expect "tracepoint" "sonde_pycode BPF_F_NO_PREALLOC
sonde_pylive BPF_F_NO_PREALLOC" "$(grep -v sonde_pybase <<<"$tp")"
expect "profile" "sonde_pycode 0
sonde_pylive 0" "$(grep -v sonde_pybase <<<"$prof")"
# sonde_pybase (a libpython on the system) is never written in NMI
expect "sonde_pybase" "" "$(grep sonde_pybase <<<"$tp$prof" | grep -v NO_PREALLOC)"
exit $fail
