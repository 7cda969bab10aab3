# timeout: 240
# bpftrace's own tools (the .bt files of Debian's bpftrace package, copied
# into the initramfs) run unchanged under sonde for 2 s each, counted from
# "Attaching N probes..." (compiling a tool that includes kernel headers
# takes seconds under TCG).  Here only the tools that need the stock kernel:
# those with kernel probes (kprobe, kretprobe, kfunc, kretfunc) or kernel
# symbols (kaddr), and runqlen, whose struct cfs_rq the host's kernel
# changed; the host's test_bpftrace_tools runs every tool its kernel can.
# The report, one line per tool, "NAME: runs" or "NAME: cannot (exit N):
# sonde's first error line", is compared with bpftrace_tools.expect; the
# docs/kernel-probes.md says why each that cannot, cannot.
T=/sonde/bpftrace-tools
[ -d $T ] || { echo "no bpftrace tools in the initramfs"; exit 1; }
# Four at a time: their 2 s of running overlap (the lane's time is short).
one() { # tool.bt -> /tmp/tools/NAME (its report line)
	local name out pid i rc why
	name=$(basename "$1" .bt)
	out=/tmp/tools/$name.out
	: > "$out"
	sonde "$1" > "$out" 2>&1 &
	pid=$!
	i=0
	while [ $i -lt 600 ] && kill -0 $pid 2>/dev/null && ! grep -q '^Attaching [0-9]* probe' "$out"; do
		sleep 0.1; i=$((i + 1))
	done
	grep -q '^Attaching [0-9]* probe' "$out" && sleep 2
	kill -INT $pid 2>/dev/null
	wait $pid; rc=$?
	if [ $rc = 0 ] && grep -q '^Attaching [0-9]* probe' "$out"; then
		echo "$name: runs"
	elif [ $i -ge 600 ]; then
		echo "$name: cannot: not attached after 60 s"
	else
		why=$(grep -m1 -E 'error|ERROR|cannot' "$out" | sed -E 's/^[^ ]*\.bt:[0-9]+:[0-9]+(-[0-9]+)?: //')
		echo "$name: cannot (exit $rc): ${why:-$(head -c 200 "$out")}"
	fi > "/tmp/tools/$name"
}
rm -rf /tmp/tools && mkdir -p /tmp/tools
n=0
kernel_tools=$(grep -lE '^[[:space:]]*(kprobe|kretprobe|kfunc|kretfunc|fentry|fexit):|kaddr\(' $T/*.bt)
tools=$(printf '%s\n' $kernel_tools $T/runqlen.bt | sort -u)
for f in $tools; do
	one "$f" &
	n=$((n + 1))
	[ $((n % 4)) = 0 ] && wait
done
wait
for f in $tools; do cat "/tmp/tools/$(basename "$f" .bt)"; done > /tmp/tools.report
# A tool listed as running that no longer runs fails the test; a change
# in the others (another sonde feature lets one run, or its first error
# moved) is printed so that bpftrace_tools.expect can be brought up to date.
cmp -s /tmp/tools.report bpftrace_tools.expect && exit 0
diff bpftrace_tools.expect /tmp/tools.report | sed "s/^/note: /"
bad=0
for name in $(sed -n 's/: runs$//p' bpftrace_tools.expect); do
	grep -qx "$name: runs" /tmp/tools.report || { echo "REGRESSION: $name no longer runs"; bad=1; }
done
[ $bad = 0 ] && echo "note: the report differs from bpftrace_tools.expect without a regression: update it"
exit $bad
