#!/usr/bin/env bash
# The Python code-object cache's maps (runtime/pycode.c): allocated as
# entries come (BPF_F_NO_PREALLOC) only when every walk runs in a uprobe,
# uretprobe or usdt program; preallocated when one runs in a tracepoint
# (an off-CPU walk in sched_switch cannot allocate: test_flame_python's
# --off-cpu check) or a perf-event program (profile:, in NMI).
# Preallocating sonde_pycode (10 MiB) was most of a pystack script's
# start-up.  Checked through the map_create calls strace shows.
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
walk='/pid == 1/ { @[jstack()] = count(); }'
usdt="usdt:/usr/bin/python3.11:python:gc__start $walk"
up="uprobe:/usr/bin/python3.11:PyList_Append $walk"
tp="tracepoint:sched:sched_switch $walk"
prof="profile:hz:99 $walk"
prealloc="sonde_pycode 0
sonde_pylive 0"
ondemand="sonde_pycode BPF_F_NO_PREALLOC
sonde_pylive BPF_F_NO_PREALLOC"
for s in usdt up tp prof "usdt tp" "up prof"; do
	script=""
	for w in $s; do script="$script ${!w}"; done
	got=$(flags "$script BEGIN { exit(); }")
	want=$prealloc
	[ "$s" = usdt ] || [ "$s" = up ] && want=$ondemand
	expect "$s" "$want" "$(grep -v sonde_pybase <<<"$got")"
	# sonde_pybase (a libpython on the system) stays preallocated (small)
	expect "$s: sonde_pybase" "" "$(grep sonde_pybase <<<"$got" | grep NO_PREALLOC)"
	[ -n "$got" ] || { echo "$s: no sonde_py map created"; fail=1; }
done
exit $fail
