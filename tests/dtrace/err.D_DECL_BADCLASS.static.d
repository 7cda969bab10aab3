/* a static variable: D has no storage class but extern (D_DECL_BADCLASS) */
static int count;

BEGIN
{
	exit(0);
}
