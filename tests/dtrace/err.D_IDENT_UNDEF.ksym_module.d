/* a kernel symbol in another module than the one written */
BEGIN
{
	trace(nosuchmodule`ksys_write);
}
