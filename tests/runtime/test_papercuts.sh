#!/usr/bin/env bash
# What a new user hit (issue 30, item 6): each message points at what to do.
SONDE=${SONDE:-./sonde}
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
say() { echo "$*"; fail=1; }
# not root: tracefs is mounted, reading it is what is denied
if command -v setpriv >/dev/null && [ -d /sys/kernel/tracing/events ]; then
	chmod 755 "$tmp"; cp "$SONDE" "$tmp/sonde"; chmod 755 "$tmp/sonde"
	got=$(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups "$tmp/sonde" \
		-e 'tracepoint:syscalls:sys_enter_read { @ = count(); }' 2>&1 | head -1)
	if [ -r /sys/kernel/tracing/events ] && setpriv --reuid=65534 --regid=65534 --clear-groups \
		test -r /sys/kernel/tracing/events; then
		: # a tracefs every user may read: nothing to check
	else
		[[ "$got" == *"cannot read the tracepoints in /sys/kernel/"*"permission denied (sonde needs root)" ]] ||
			say "non-root: $got"
	fi
fi
# sonde probe -a suggests sonde's command, not only perf's
if [ -x /bin/bash ]; then
	got=$("$SONDE" probe -x /bin/bash -a 'sonde_papercut=readline' 2>&1)
	"$SONDE" probe -d 'probe_bash:sonde_papercut' >/dev/null 2>&1
	grep -qF "sonde -e 'tracepoint:probe_bash:sonde_papercut { @[comm] = count(); }'" <<<"$got" ||
		say "probe -a: $got"
fi
# a script named as one of sonde's tools that does not compile here (as
# bpftrace's biolatency.bt on kprobes without CONFIG_KPROBES) is pointed at it
printf 'kprobe:nonexistent_fn_xyz { @ = count(); } BEGIN { x' >"$tmp/biolatency.bt"
got=$("$SONDE" "$tmp/biolatency.bt" 2>&1 | tail -1)
[ "$got" = "HINT: sonde has its own biolatency.bt for this machine: sonde --tool biolatency" ] ||
	say "tool hint: $got"
cp "$tmp/biolatency.bt" "$tmp/notatool.bt"
"$SONDE" "$tmp/notatool.bt" 2>&1 | grep -q HINT && say "a hint for a script that is no tool"
exit $fail
