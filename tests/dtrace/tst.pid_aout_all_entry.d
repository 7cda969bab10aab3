/*
 * ASSERTION: pid$target:a.out::entry on a plain gcc program enables the
 * program's functions; the size-less _init and _fini (assembler labels)
 * are not pid probes, so they do not fail the whole description.
 */
#pragma D option quiet

pid$target:a.out::entry
/probefunc == "add3"/
{
	@calls = count();
}

pid$target:a.out::entry
/probefunc == "_init" || probefunc == "_fini"/
{
	@sizeless = count();
}

END
{
	printa("add3 called: %@d\n", @calls);
	printa("sizeless: %@d\n", @sizeless);
}
