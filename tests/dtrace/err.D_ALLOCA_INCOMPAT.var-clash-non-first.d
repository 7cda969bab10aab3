/*
 * ASSERTION: a variable that holds another pointer cannot be given
 * alloca() memory later, in this clause variable's case in the same clause
 * (dtrace-utils' err.D_ALLOCA_INCOMPAT.var-clash-non-first.d).
 */
#pragma D option quiet

BEGIN
{
	this->b = (char *)curthread;
	this->a = this->b + 5;
	this->a = (char *)alloca(1);
	trace(this->a);
	exit(0);
}
