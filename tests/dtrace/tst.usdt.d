/* USDT probes as DTrace names them: provider + pid, '__' in a note's name
 * is '-' (python:gc__start is gc-start); gc3.py makes three full
 * (generation 2) collections */
python$target:::gc-start
/arg0 == 2/
{
	n++;
}

END
{
	printf("at least 3 full collections: %d\n", n >= 3);
}
