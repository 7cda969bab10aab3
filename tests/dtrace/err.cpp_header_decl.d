/* a C syntax error in a header read through -I names the header and its line */
#include <cpp_badsys.h>

BEGIN
{
	exit(0);
}
