/*
 * ASSERTION: no clause starts after exit() (dtrace-utils checks its
 * activity state before each clause): dd keeps writing until sonde
 * detaches, but the count stops at exit()'s write, and the clause after
 * exit()'s on the same probe does not run; END still does.
 */
#pragma D option quiet

syscall::write:entry
/pid == $target/
{
	@writes = count();
	n++;
}

syscall::write:entry
/pid == $target && n == 10/
{
	exit(0);
}

syscall::write:entry
/pid == $target && n >= 10/
{
	printf("after exit: %d\n", n);
}

END
{
	printf("end at %d\n", n);
}
