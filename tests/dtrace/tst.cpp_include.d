/* #include "..." found through -I, twice (the header guards itself),
 * and <sys/socket.h>, read whole from the system include path as cpp does */
#include "cpp_defs.h"
#include <cpp_defs.h>
#include <sys/socket.h>
#pragma D option quiet

BEGIN
{
	printf("%d %s %d\n", HALF(84), GREETING, AF_INET);
	exit(0);
}
