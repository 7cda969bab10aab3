/* without -C a preprocessor line is not D, in a clause too */
BEGIN
{
#ifdef X
	exit(0);
#endif
}
