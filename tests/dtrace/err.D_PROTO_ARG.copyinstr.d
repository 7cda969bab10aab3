/* copyinstr() of a string */
BEGIN
{
	trace(copyinstr("/etc/passwd"));
}
