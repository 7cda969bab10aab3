#!/usr/bin/env bash
# debugf() writes through bpf_trace_printk into the kernel's trace buffer
# (integers and strings), and sonde warns as bpftrace does.  The buffer is
# read, not consumed or cleared: other tracers on the machine keep theirs.
set -u
trace=/sys/kernel/tracing/trace
[ -r $trace ] || trace=/sys/kernel/debug/tracing/trace
[ -r $trace ] || { echo "no readable tracefs trace buffer"; exit 77; }
tok="sonde-debugf-$$-$RANDOM"
err=$(timeout 20 "$SONDE" -e "BEGIN { debugf(\"$tok %d %s %u\\n\", -42, \"str\", 7); exit(); }" 2>&1 >/dev/null)
grep -qi "warning: The debugf() builtin is not recommended for production use" <<<"$err" ||
	{ echo "no warning: $err"; exit 1; }
line=$(grep -a "$tok" $trace | tail -1)
[[ "$line" == *"bpf_trace_printk: $tok -42 str 7" ]] || { echo "trace buffer: [$line]"; exit 1; }
