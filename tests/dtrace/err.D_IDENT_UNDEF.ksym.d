/* a kernel symbol /proc/kallsyms does not have: dtrace's message */
BEGIN
{
	trace(`no_such_kernel_symbol);
}
