/* system() without -w */
BEGIN
{
	system("echo hi");
}
