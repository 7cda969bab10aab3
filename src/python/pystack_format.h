/* Printing a pystack value: one "[ file:LINE (qualname) ]" line per frame,
 * innermost first, from the code-object cache map. */
#pragma once
#include <stdbool.h>

#include "../lang/types.h"
#include "../util/util.h"

/* Frames in the value (at most the type's depth); *bad: the walk met
 * memory that is not a code object. */
int pystack_nframes(const Type *t, const void *d, bool *bad);
/* Frame i (0 innermost) as text: "[ file:LINE (name) ]", or with folded
 * "name (file:LINE)". */
void pystack_frame(int pycode_fd, const void *d, int i, bool folded, char *text, size_t size);
void pystack_format(StrBuf *sb, int pycode_fd, const Type *t, const void *d, bool in_key);
