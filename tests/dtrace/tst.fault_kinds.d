/* the other faults DTrace names: a copyinto()/bcopy() destination that is
 * not allocated scratch memory (invalid address, there), inet_ntop() of an
 * unknown family (illegal operation), `/=` by zero (divide-by-zero) */
BEGIN
{
	copyinto(0, 4, 16);
}

BEGIN
{
	this->p = alloca(8);
	bcopy((char *)curthread, this->p + 8, 8);
}

BEGIN
{
	trace(inet_ntop(7, alloca(4)));
}

BEGIN
{
	this->z = 0;
	this->n = 10;
	this->n /= this->z;
}

ERROR
{
	printf("clause %d: type %d addr %s\n", arg2, arg4,
	    arg4 == DTRACEFLT_BADADDR ? (arg5 == 16 ? "16" : "past the allocation") : "none");
}

BEGIN
{
	exit(0);
}
