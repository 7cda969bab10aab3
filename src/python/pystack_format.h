/* Printing a pystack value: one "[ file:LINE (qualname) ]" line per frame,
 * innermost first, from the code-object cache map. */
#pragma once
#include <stdbool.h>

#include "../lang/types.h"
#include "../util/util.h"

void pystack_format(StrBuf *sb, int pycode_fd, const Type *t, const void *d, bool in_key);
