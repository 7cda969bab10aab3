/* copyin() returns scratch memory holding a copy of user memory: read it
 * through a cast, or as a string with stringof(); copyinto() fills memory
 * from alloca(); bcopy() copies kernel memory into it */
syscall::openat:entry
/pid == $target && copyinstr(arg1) == "/dev/null"/
{
	printf("%x\n", *(int *)copyin(arg1, 4));
	printf("%s\n", stringof(copyin(arg1, 10)));
	this->p = (char *)alloca(16);
	copyinto(arg1, 10, this->p);
	printf("copyinto %s\n", stringof(this->p));
	this->q = alloca(24);
	bcopy((char *)curthread + offsetof(struct task_struct, comm), this->q, 16);
	printf("bcopy %s\n", stringof(this->q) == execname ? "execname" : stringof(this->q));
	printf("stringof %s\n", stringof("abc"));
}
