# A kprobe wildcard is one BPF link where the kernel has kprobe_multi
# (sonde --info says so), else one kprobe (a perf event and a link) per
# function: counted in sonde's open fds while it runs (there a narrower
# wildcard: lib.sh).
. ./lib.sh
multi=no
kprobe_multi_kernel && multi=yes
# the lane's kernels: Debian's 6.12 has CONFIG_FPROBE, its 6.1 does not
case $(uname -r) in
6.12.*) [ $multi = yes ] || { echo "sonde --info says no kprobe_multi on $(uname -r)"; exit 1; } ;;
6.1.*) [ $multi = no ] || { echo "sonde --info says kprobe_multi on $(uname -r)"; exit 1; } ;;
esac
pat='vfs_*' min=50
[ $multi = yes ] || pat=$(narrow_wildcard) min=16
want=$(sonde -l "kprobe:$pat" | wc -l)
[ "$want" -ge $min ] || { echo "kprobe:$pat lists $want functions, fewer than $min"; exit 1; }
# BEGIN's printf reaches the file at once (as bpftrace's): the probes are in
sonde -e "kprobe:$pat { @ = count(); } BEGIN { printf(\"ready\\n\"); }" > /tmp/multi.out 2>&1 &
pid=$!
i=0
while [ $i -lt 600 ] && ! grep -q '^ready' /tmp/multi.out; do sleep 0.1; i=$((i + 1)); done
[ $i -lt 600 ] || { echo "no 'ready' after 60 s"; cat /tmp/multi.out; kill -INT $pid; exit 1; }
n=$(sed -n 's/^Attaching \([0-9]*\) probes.*/\1/p' /tmp/multi.out)
n=$((n - 1)) # BEGIN
links=$(ls -l /proc/$pid/fd | grep -c 'bpf_link')
perf=$(ls -l /proc/$pid/fd | grep -c 'perf_event')
kill -INT $pid; wait $pid
echo "note: kprobe_multi: $multi, kprobe:$pat: $n probes ($want listed), $links links, $perf perf events"
# (a function on the kprobe blacklist is listed, skipped with a warning)
[ "$n" -ge $min ] && [ "$n" -le "$want" ] || exit 1
if [ $multi = yes ]; then [ "$links" = 1 ] && [ "$perf" = 0 ] || exit 1
else [ "$links" = "$n" ] && [ "$perf" = "$n" ] || exit 1; fi
exit 0
