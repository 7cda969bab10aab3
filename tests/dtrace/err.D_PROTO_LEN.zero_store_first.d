/* a store of 0 (a delete) is the array's first use: its keys are the
 * prototype the later store is held to, as in dtrace (this crashed the
 * code generator when the keys disagreed) */
BEGIN
{
	t[1, 2] = 0;
	t[3] = 2;
	exit(0);
}
