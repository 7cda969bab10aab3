# sonde -l / -lv for kfunc on a module's functions (dummy.ko's BTF, split on
# vmlinux's): every listed function is traceable in that module, the one
# the kfunc_module case probes is there with its BTF parameters, and a
# function named without its module is found in the module.
A=/sys/kernel/tracing/available_filter_functions
fail() { echo "$*"; exit 1; }
[ -e /sys/kernel/btf/dummy ] || fail "no /sys/kernel/btf/dummy: the kernel has no module BTF"
got=$(sonde -l 'kfunc:dummy:*')
[ -n "$got" ] || fail "-l kfunc:dummy:* lists nothing"
echo "$got" | while read -r l; do
	f=${l#kfunc:dummy:}
	[ "$l" != "$f" ] && grep -q "^$f \[dummy\]\$" $A || { echo "listed but not a traceable dummy function: $l"; exit 1; }
done || exit 1
echo "$got" | grep -qx 'kfunc:dummy:dummy_get_stats64' || fail "-l kfunc:dummy:*: no dummy_get_stats64 in [$got]"
want='kfunc:dummy:dummy_get_stats64
    struct net_device * dev
    struct rtnl_link_stats64 * stats'
lv=$(sonde -lv 'kfunc:dummy:dummy_get_stats64')
[ "$lv" = "$want" ] || fail "-lv kfunc:dummy:dummy_get_stats64: got [$lv]"
[ "$(sonde -l 'kfunc:dummy_get_stats64')" = kfunc:dummy:dummy_get_stats64 ] ||
	fail "-l kfunc:dummy_get_stats64: $(sonde -l 'kfunc:dummy_get_stats64' 2>&1)"
# vmlinux's functions stay where they were, none of dummy's among them
[ "$(sonde -l 'kfunc:vmlinux:dummy_*' | grep -c ':dummy_get_stats64$')" = 0 ] || fail "vmlinux lists dummy's function"
exit 0
