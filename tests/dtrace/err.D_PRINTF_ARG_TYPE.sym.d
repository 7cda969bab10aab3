/* sym()'s value is an address (_symaddr) to print with %a or alone, not a
 * string: %s refuses it, as dtrace's pfcheck_str */
BEGIN
{
	printf("%s\n", sym(0));
	exit(0);
}
