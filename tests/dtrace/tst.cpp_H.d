/* -H: each included file on stderr, as cpp -H lists it (a guarded header
 * included again is not read again, so not listed) */
#include "cpp_defs.h"
#include "cpp_defs.h"
#pragma D option quiet

BEGIN
{
	printf("%d\n", HALF(10));
	exit(0);
}
