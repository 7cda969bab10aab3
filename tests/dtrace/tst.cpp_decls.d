/* a header's extern declarations and function prototypes are accepted (D
 * takes a prototype as an extern declaration), a static inline function's
 * body is skipped; its enum constants and packed struct are usable */
#include "cpp_decls.h"
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d %d\n", MODE_ON, MODE_AUTO, sizeof(wire_t), offsetof(struct wire, len),
	    sizeof(enum mode));
	exit(0);
}
