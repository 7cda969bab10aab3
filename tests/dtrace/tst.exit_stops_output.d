/*
 * ASSERTION: dtrace's consumer stops at the exit() record: the rest of
 * exit's firing prints, firings after it in the buffer do not (dd keeps
 * writing while sonde wakes up), END still runs and aggregations print.
 */
#pragma D option quiet

syscall::write:entry
/pid == $target/
{
	n++;
	printf("%d\n", n);
}

syscall::write:entry
/pid == $target && n <= 10/
{
	@writes = count();
}

syscall::write:entry
/pid == $target && n == 10/
{
	exit(0);
	printf("rest of the firing\n");
}

END
{
	printf("end\n");
}
