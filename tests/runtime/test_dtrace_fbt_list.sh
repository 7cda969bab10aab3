#!/usr/bin/env bash
# sonde dtrace -l's fbt probes: with kprobes, every traceable kernel function
# (tracefs available_filter_functions) has an entry and a return probe, and
# globs match them; without (this project's usual host), one line says so,
# dtrace's "failed to match" follows, and nothing is listed.  tests/kernel/test_dtrace_fbt.sh runs them.
set -u
cd "$(dirname "$0")"
SONDE=${SONDE:-$PWD/../../sonde}
out=$("$SONDE" dtrace -l -n 'fbt::vfs_rea?:' 2>&1)
if [ -e /sys/bus/event_source/devices/kprobe ] || [ -e /sys/kernel/tracing/kprobe_events ] ||
	[ -e /sys/kernel/debug/tracing/kprobe_events ]; then
	[ "$(grep -cE ' fbt +vmlinux +vfs_read (entry|return)$' <<<"$out")" == 2 ] ||
		{ echo "fbt::vfs_rea?: should list vfs_read's entry and return:"; echo "$out" | head; exit 1; }
else
	want="dtrace: fbt probes are not available: this kernel has no kprobes (no kprobe PMU or kprobe_events)
dtrace: failed to match fbt::vfs_rea?:: No probe matches description
   ID   PROVIDER            MODULE                          FUNCTION NAME"
	[ "$out" == "$want" ] || { printf -- '--- want\n%s\n--- got\n%s\n' "$want" "$out"; exit 1; }
fi
exit 0
