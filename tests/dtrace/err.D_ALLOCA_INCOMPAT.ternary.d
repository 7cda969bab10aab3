/*
 * ASSERTION: a ternary conditional with alloca and non-alloca branches
 * cannot be assigned to a variable (dtrace-utils'
 * err.D_ALLOCA_INCOMPAT.ternary.d).
 */
#pragma D option quiet

BEGIN
{
	a = (char *)alloca(1);
	a = (a == NULL) ? (char *)50 : a;
}

ERROR
{
	exit(0);
}
