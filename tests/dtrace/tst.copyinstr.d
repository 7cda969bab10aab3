/* copyinstr(): the user string at an address, at most maxlen bytes; the
 * talk's @[copyinstr(...)] = count() keyed by the path */
syscall::openat:entry
/pid == $target && copyinstr(arg1) == "/dev/null"/
{
	@[copyinstr(arg1)] = count();
	printf("[%s] [%s] [%s] [%s]\n", copyinstr(arg1), copyinstr(arg1, 4), copyinstr(arg1, 0),
	    copyinstr(arg1, 100));
}
