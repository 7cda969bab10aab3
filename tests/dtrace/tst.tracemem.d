/* tracemem(): dtrace's hex and ASCII dump of memory (here a process's
 * path copied into scratch memory, and a zeroed alloca() area holding it);
 * a third argument limits the bytes printed, unless negative or larger */
syscall::openat:entry
/pid == $target && copyinstr(arg1) == "/dev/null"/
{
	tracemem(copyin(arg1, 10), 10);
	this->p = (char *)alloca(24);
	copyinto(arg1, 10, this->p);
	tracemem(this->p, 24);
	tracemem(this->p, 24, 4);
	tracemem(this->p, 24, -1);
	tracemem(this->p, 8, 100);
	printf("\n");
}
