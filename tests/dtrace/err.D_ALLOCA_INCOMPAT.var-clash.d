/*
 * ASSERTION: a variable that holds alloca() memory in one clause cannot
 * hold another pointer in a later one, even with NULL assigned in between
 * (dtrace-utils' err.D_ALLOCA_INCOMPAT.var-clash.d; dtrace names the line
 * of the clause's probe description).
 */
#pragma D option quiet

BEGIN
{
	a = (char *)alloca(1);
}

BEGIN
{
	b = (char *)curthread;
	a = NULL;
	a = b + 5;
	trace(a);
	exit(0);
}
