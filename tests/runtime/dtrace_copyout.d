/* copyoutstr() and copyout() (with -w) write into the process: the path
 * it opens is changed before the kernel reads it */
syscall::openat:entry
/pid == $target && copyinstr(arg1) == "/dev/nulx"/
{
	copyoutstr("/dev/nulX", arg1, 64);
	printf("%s\n", copyinstr(arg1));
	this->b = (char *)alloca(8);
	copyinto(arg1, 8, this->b);
	copyout(this->b + 7, arg1 + 8, 1);
	printf("%s\n", copyinstr(arg1));
	self->t = 1;
}

syscall::openat:return
/self->t/
{
	printf("%s\n", (int)arg0 >= 0 ? "opened" : "failed");
	self->t = 0;
}
