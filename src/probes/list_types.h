/* `-l 'struct NAME'` (also union, enum; -lv: their definitions): the
 * kernel's BTF types, listed as bpftrace 0.17 lists them. */
#pragma once
#include <stdbool.h>
#include <stdio.h>

#include "../sym/symctx.h"

/* Whether bpftrace lists types for this pattern: "struct ", "union " or
 * "enum " first, and no ':'. */
bool list_types_wanted(const char *pattern);
/* Prints the matches; how many, or -1 after an error message. */
int list_types(SymCtx *sc, FILE *out, const char *pattern, bool verbose);
