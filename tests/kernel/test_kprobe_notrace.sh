# A function the kernel has (kallsyms) but ftrace cannot patch (not in
# available_filter_functions) and not on the kprobe blacklist: sonde names
# it and the reason, and attaches nothing.
A=/sys/kernel/tracing/available_filter_functions
cut -d' ' -f1 $A | sort -u > /tmp/aff
cut -f2 /sys/kernel/debug/kprobes/blacklist | sort -u > /tmp/bl
f=$(grep -E ' [tT] (vfs|ksys|do_sys|tcp)_[a-z_0-9]*$' /proc/kallsyms | cut -d' ' -f3 | sort -u |
	grep -vxFf /tmp/aff | grep -vxFf /tmp/bl | head -1)
[ -n "$f" ] || { echo "no untraceable function found"; exit 77; }
out=$(sonde -e "kprobe:$f { }" 2>&1); rc=$?
want="stdin:1:1-$((${#f} + 8)): ERROR: kprobe:$f cannot be probed: $f cannot be traced: it is not in available_filter_functions (the kernel marks it notrace, or ftrace cannot patch it)"
[ $rc = 1 ] || { echo "exit status $rc"; exit 1; }
[ "$(echo "$out" | head -1)" = "$want" ] || { echo "got: $out"; echo "want: $want"; exit 1; }
exit 0
