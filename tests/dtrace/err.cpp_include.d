/* an include file that does not exist */
#include "no_such_header.h"

BEGIN
{
	exit(0);
}
