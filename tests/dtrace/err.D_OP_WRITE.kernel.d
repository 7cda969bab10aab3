/* Memory sonde did not give the clause is not writable: a member of a
 * kernel structure reached from a built-in variable is DTrace's
 * D_OP_WRITE (a pointer variable's memory is checked at run time). */
BEGIN
{
	curthread->pid = 1;
	exit(0);
}
