/* pid provider: entry arguments, a return probe's value in arg1, and the
 * probe's names (module a.out for the program) */
pid$target:a.out:add3:entry
{
	printf("%s:%s:%s a=%d b=%d c=%d\n", probemod, probefunc, probename, arg0, arg1, (long)arg2);
}

pid$target:a.out:add3:return
{
	printf("%s:%s ret=%d\n", probefunc, probename, arg1);
}
