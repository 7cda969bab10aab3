# sonde dtrace's fbt provider on a kernel with kprobes: fbt::vfs_read:entry
# and :return fire for each of dd's 20 one-byte reads (arg2 is the size
# asked, arg0 the struct file *), and a return probe's arg1 is the value
# vfs_read returned (1 each).
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
