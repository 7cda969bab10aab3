/* kernel variables are read-only: an assignment to one is refused as
 * dtrace refuses it (a kernel symbol is no writable lvalue) */
BEGIN
{
	`__start_BTF = 3;
}
