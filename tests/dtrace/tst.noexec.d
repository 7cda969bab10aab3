/* -e: compile, announce, do not run */
BEGIN
{
	printf("never\n");
}
