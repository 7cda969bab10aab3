/* A store through a pointer that is not the clause's scratch memory
 * (alloca()) faults as DTrace's does: invalid address; so does one past
 * the memory alloca() gave (dtrace-utils' err.alloca-store-beyond-top.d). */
#pragma D option quiet

BEGIN
{
	this->p = (int *)curthread;
	*this->p = 1;
}

BEGIN
{
	s = (char *)alloca(15);
	s[16] = 65;
}

ERROR
{
	printf("fault %d in probe %d, clause %d\n", arg4 == DTRACEFLT_BADADDR, arg1, arg2);
}

BEGIN
{
	exit(0);
}
