/* after the preprocessor, an error names the script's line: the #include
 * and the macro call over three lines come before it */
#include "cpp_defs.h"
#define ADD(a, b) ((a) + (b))

BEGIN
{
	x = ADD(1,
	    2);
	y = HALF(x) +;
}
