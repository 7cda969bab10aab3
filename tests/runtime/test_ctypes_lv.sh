#!/usr/bin/env bash
# -lv of a tracepoint with struct-pointer fields: bpftrace's lines unchanged
# (compared with bpftrace -lv when it is installed), each followed by the
# pointee's members from BTF, indented 8 ("+OFFSET TYPE NAME").
export SONDE_COMPAT=0.17 # compared with bpftrace 0.17: sonde speaks its generation
set -u
[ -r /sys/kernel/btf/vmlinux ] || { echo "no BTF"; exit 77; }
tp=tracepoint:capability:cap_capable
[ -d /sys/kernel/tracing/events/capability/cap_capable ] || { echo "no $tp"; exit 77; }
out=$("$SONDE" -lv "$tp") || { echo "sonde -lv failed: $out"; exit 1; }
plain=$(printf '%s\n' "$out" | grep -v '^        ')
if command -v bpftrace >/dev/null; then
	want=$(bpftrace -lv "$tp" 2>/dev/null)
	[ "$plain" = "$want" ] || { diff <(echo "$want") <(echo "$plain"); exit 1; }
fi
# const struct cred * cred: its layout follows, before the next field
printf '%s\n' "$out" | grep -A1 -x '    const struct cred \* cred' | tail -1 |
	grep -Eq '^        \+0 +struct \{\.\.\.\} usage$' || { echo "no cred layout: $out"; exit 1; }
printf '%s\n' "$out" | grep -Eq '^        \+[0-9]+ +struct user_namespace \* user_ns$' ||
	{ echo "no user_ns member: $out"; exit 1; }
# fields that are not struct pointers get no layout
printf '%s\n' "$out" | grep -A1 -x '    int cap' | tail -1 | grep -qx '    int ret' ||
	{ echo "layout after int cap: $out"; exit 1; }
exit 0
