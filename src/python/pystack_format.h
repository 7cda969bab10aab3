/* Printing a pystack value: one "[ file:LINE (qualname) ]" line per frame,
 * innermost first, from the code-object cache map. */
#pragma once
#include <stdbool.h>

#include "../lang/types.h"
#include "../util/util.h"

/* Frames in the value (at most the type's depth); *stop: why the walk
 * stopped early (the value's PYSTACK_BAD / PYSTACK_CUT bit), 0 if it did not. */
int pystack_nframes(const Type *t, const void *d, uint64_t *stop);
/* The line that ends a stack whose walk stopped early (stop from
 * pystack_nframes), NULL when it did not: "[ not a CPython 3.11 frame: ...". */
const char *pystack_stop_text(uint64_t stop);
/* Frame i (0 innermost) as text: "[ file:LINE (name) ]", or with folded
 * "name (file:LINE)". */
void pystack_frame(int pycode_fd, const void *d, int i, bool folded, char *text, size_t size);
/* Frame i's parts (PyFrameParts: runtime/frontend_rt.h); false when its
 * code object is not in the cache (out->code, out->freed say which) */
struct PyFrameParts;
bool pystack_frame_parts(int pycode_fd, const void *d, int i, struct PyFrameParts *out);
void pystack_format(StrBuf *sb, int pycode_fd, const Type *t, const void *d, bool in_key);
/* the three above, for the runtime's printers (pystack_printer.c) */
struct PyStackPrinter;
extern const struct PyStackPrinter pystack_printer;
