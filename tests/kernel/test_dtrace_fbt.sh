# sonde dtrace's fbt provider on a kernel with kprobes: fbt::vfs_read:entry
# and :return fire for each of dd's 20 one-byte reads (arg2 is the size
# asked, arg0 the struct file *), and a return probe's arg1 is the value
# vfs_read returned (1 each).  dtrace -l lists fbt probes from the kernel's
# traceable functions (available_filter_functions, once each), and a glob
# enables them as a name does.
A=/sys/kernel/tracing/available_filter_functions
list=$(sonde dtrace -l -n 'fbt::vfs_rea?:' 2>&1)
[ "$(echo "$list" | grep -cE ' fbt +vmlinux +vfs_read (entry|return)$')" = 2 ] &&
	[ "$(echo "$list" | wc -l)" = 3 ] || { echo "-l fbt::vfs_rea?: $list"; exit 1; }
n=$(sonde dtrace -l -n 'fbt:vmlinux:tcp_*:entry' | grep -c ' entry$')
m=$(grep -v ' \[' $A | cut -d' ' -f1 | grep '^tcp_' | grep -v '\.' | sort -u | wc -l)
[ "$n" = "$m" ] && [ "$n" -gt 100 ] || { echo "-l fbt:vmlinux:tcp_*:entry: $n, available_filter_functions $m"; exit 1; }
glob=$(sonde dtrace -q -n 'fbt::vfs_rea?:entry /pid == $target && arg2 == 1/ { n++; } END { printf("%d\n", n); }' \
	-c 'dd if=/dev/zero of=/dev/null bs=1 count=7 status=none' 2>&1)
[ "$glob" = 7 ] || { echo "fbt::vfs_rea?:entry: $glob"; exit 1; }
out=$(sonde dtrace -q -n '
fbt::vfs_read:entry
/pid == $target && arg2 == 1/
{
	@entries = count();
	self->one = 1;
	file = arg0 != 0;
}

fbt::vfs_read:return
/self->one/
{
	@returns = count();
	@returned = sum(arg1);
	self->one = 0;
}

END
{
	printa("entries %@d\n", @entries);
	printa("returns %@d\n", @returns);
	printa("returned %@d\n", @returned);
	printf("file %d\n", file);
}' -c 'dd if=/dev/zero of=/dev/null bs=1 count=20 status=none' 2>&1)
want='entries 20
returns 20
returned 20
file 1'
case $out in
*"$want"*) exit 0 ;;
*) echo "$out"; exit 1 ;;
esac
