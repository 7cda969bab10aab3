# sonde -l / -lv for kprobes: exact for a known pattern, a module's
# functions, and the count of a wildcard against available_filter_functions.
A=/sys/kernel/tracing/available_filter_functions
fail() { echo "$*"; exit 1; }
want='kprobe:vfs_read
kprobe:vfs_readlink
kprobe:vfs_readv'
[ "$(sonde -l 'kprobe:vfs_read*')" = "$want" ] || fail "-l kprobe:vfs_read*: $(sonde -l 'kprobe:vfs_read*' 2>&1)"
[ "$(sonde -lv 'kprobe:vfs_read*')" = "$want" ] || fail "-lv kprobe:vfs_read*: $(sonde -lv 'kprobe:vfs_read*' 2>&1)"
[ "$(sonde -l 'k:vfs_read*')" = "$want" ] || fail "-l k:vfs_read*"
got=$(sonde -l 'kprobe:dummy:*')
exp=$(grep ' \[dummy\]$' $A | cut -d' ' -f1 | sort -u | sed 's/^/kprobe:dummy:/')
[ -n "$exp" ] && [ "$got" = "$exp" ] || fail "-l kprobe:dummy:*: got [$got] want [$exp]"
n=$(sonde -l 'kprobe:tcp_*' | wc -l)
m=$(cut -d' ' -f1 $A | grep '^tcp_' | grep -v -e '\.part\.' -e '\.cold' | sort -u | wc -l)
[ "$n" = "$m" ] && [ "$n" -gt 100 ] || fail "-l kprobe:tcp_*: $n lines, available_filter_functions has $m"
exit 0
