# A kprobe wildcard is one BPF link where the kernel has kprobe_multi
# (sonde --info says so), else one kprobe (a perf event and a link) per
# function: counted in sonde's open fds while it runs.
multi=no
sonde --info | grep -q 'kprobe_multi.*: yes' && multi=yes
# the lane's kernels: Debian's 6.12 has CONFIG_FPROBE, its 6.1 does not
case $(uname -r) in
6.12.*) [ $multi = yes ] || { echo "sonde --info says no kprobe_multi on $(uname -r)"; exit 1; } ;;
6.1.*) [ $multi = no ] || { echo "sonde --info says kprobe_multi on $(uname -r)"; exit 1; } ;;
esac
sonde -e 'kprobe:vfs_* { @ = count(); } BEGIN { printf("ready\n"); }' > /tmp/multi.out 2>&1 &
pid=$!
i=0
while [ $i -lt 600 ] && ! grep -q '^ready' /tmp/multi.out; do sleep 0.1; i=$((i + 1)); done
n=$(sed -n 's/^Attaching \([0-9]*\) probes.*/\1/p' /tmp/multi.out)
n=$((n - 1)) # BEGIN
links=$(ls -l /proc/$pid/fd | grep -c 'bpf_link')
perf=$(ls -l /proc/$pid/fd | grep -c 'perf_event')
kill -INT $pid; wait $pid
echo "kprobe_multi: $multi, $n probes, $links links, $perf perf events"
[ -n "$n" ] && [ "$n" -gt 50 ] || exit 1
if [ $multi = yes ]; then [ "$links" = 1 ] && [ "$perf" = 0 ] || exit 1
else [ "$links" = "$n" ] && [ "$perf" = "$n" ] || exit 1; fi
exit 0
