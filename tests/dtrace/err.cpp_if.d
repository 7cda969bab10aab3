/* #if without its #endif */
#ifdef __SUNW_D
BEGIN
{
	exit(0);
}
