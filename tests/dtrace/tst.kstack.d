/* stack(n) in a system call's probe: kernel frames as "vmlinux`func+0xoff"
 * (names and offsets depend on the kernel: the filter keeps the shape),
 * as a record and as an aggregation key; -x stackindent sets the indent */
syscall::getppid:entry
/pid == $target/
{
	stack(2);
	@[stack(2)] = count();
}
