/* a fault in a predicate is reported as its clause's (dtrace-utils names
 * no action); a member read through a bad pointer faults at the member's
 * address */
BEGIN
/ *(int *)0 == 0 /
{
	trace("not reached");
}

BEGIN
{
	this->t = (struct task_struct *)0;
	trace(this->t->pid);
}

ERROR
{
	printf("clause %d, at the member: %d\n", arg2, arg5 == offsetof(struct task_struct, pid));
}

BEGIN
{
	exit(0);
}
