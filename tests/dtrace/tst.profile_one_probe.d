/*
 * ASSERTION: clauses on one profile-N probe run in clause order on each
 * firing, on every CPU (one event per CPU, each running every clause).
 */
#pragma D option quiet

profile-997
{
	a[cpu]++;
}

profile-997
/a[cpu] != b[cpu] + 1/
{
	printf("clause 2 saw %d after %d\n", a[cpu], b[cpu]);
	exit(1);
}

profile-997
{
	b[cpu] = a[cpu];
}

profile-997
/b[cpu] == 100/
{
	printf("100 firings on a CPU, the clauses in order\n");
	exit(0);
}
