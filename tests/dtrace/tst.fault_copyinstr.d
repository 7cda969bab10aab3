/* copyinstr() of an address the process cannot read: DTrace's "invalid
 * address" error on stderr, with the enabled probe, the probe, the address
 * and the action (the second statement); the clause's output so far is
 * dropped and the rest of it does not run, other clauses still do */
syscall::getppid:entry
/pid == $target/
{
	printf("dropped\n");
	trace(copyinstr(0));
	printf("not reached\n");
}

syscall::getppid:entry
/pid == $target/
{
	printf("next clause\n");
}
