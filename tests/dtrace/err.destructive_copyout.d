/* copyoutstr() without -w */
syscall::openat:entry
{
	copyoutstr("x", arg1, 2);
}
