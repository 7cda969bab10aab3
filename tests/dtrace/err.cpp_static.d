/* a static variable: D has no storage for it (dtrace's D_DECL_BADCLASS) */
#include <sys/types.h>
static int count;

BEGIN
{
	exit(0);
}
