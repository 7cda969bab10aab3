/* Python stack values for the runtime's printers (runtime/frontend_rt.h):
 * the front ends that allow pystack put this in their table. */
#include "../runtime/frontend_rt.h"
#include "pystack_format.h"

const PyStackPrinter pystack_printer = {pystack_format, pystack_nframes, pystack_frame,
					  pystack_frame_parts, "_PyEval_EvalFrameDefault"};
