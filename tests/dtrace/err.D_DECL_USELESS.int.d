/* a type and no name declares nothing: dtrace's D_DECL_USELESS */
int;

BEGIN
{
	exit(0);
}
