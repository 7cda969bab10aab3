/*
 * ASSERTION: a bcopy() or store into alloca() memory that starts inside it
 * but runs past its end is DTrace's "invalid size" fault with the size
 * (dtrace-utils' dt_cg_alloca_access_check and dt_handle.c); one that
 * starts outside it is "invalid address" with the address.  Each ends its
 * clause; ERROR sees DTRACEFLT_BADSIZE and the size as arg5.
 */
#pragma D option quiet
#pragma D option scratchsize=64

BEGIN
{
	s = (char *)alloca(9);
	bcopy(curthread, s, 8);
	printf("dropped: 8 bytes of 9 fit, the clause faults after\n");
	bcopy(curthread, s + 4, 6);
	printf("not reached: 4 + 6 bytes are past the end\n");
}

BEGIN
{
	p = (char *)alloca(9);
	w = (uint64_t *)(p + 2);
	*w = 1;
	printf("not reached: a store of 8 bytes at 2 of 9\n");
}

BEGIN
{
	q = (uint64_t *)alloca(8);
	q[1] = 1;
	printf("not reached: q[1] starts past the end\n");
}

ERROR
{
	printf("ERROR: fault %s, arg5 %d\n",
	    arg4 == DTRACEFLT_BADSIZE ? "BADSIZE" :
	    arg4 == DTRACEFLT_BADADDR ? "BADADDR" : "other", arg4 == DTRACEFLT_BADADDR ? 0 : arg5);
}

BEGIN
{
	exit(0);
}
