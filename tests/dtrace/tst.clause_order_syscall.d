/*
 * ASSERTION: clauses on one system call probe run in clause order on each
 * firing (the kernel runs a tracepoint's programs oldest first).
 */
#pragma D option quiet

syscall::write:entry
/pid == $target && arg0 == 1/
{
	w++;
}

syscall::write:entry
/pid == $target && arg0 == 1 && w != v + 1/
{
	printf("clause 2 saw %d after %d\n", w, v);
}

syscall::write:entry
/pid == $target && arg0 == 1/
{
	v = w;
}

END
{
	printf("%d writes, the clauses in order\n", v);
}
