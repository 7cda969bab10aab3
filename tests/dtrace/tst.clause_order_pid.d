/*
 * ASSERTION: clauses on one pid-provider probe run in clause order on each
 * firing (sonde attaches a uprobe's newest first: the kernel runs its
 * consumers last-attached first).
 */
#pragma D option quiet

pid$target:a.out:add3:entry
{
	u++;
}

pid$target:a.out:add3:entry
/u != t + 1/
{
	printf("clause 2 saw %d after %d\n", u, t);
}

pid$target:a.out:add3:entry
{
	t = u;
}

END
{
	printf("%d calls, the clauses in order\n", t);
}
