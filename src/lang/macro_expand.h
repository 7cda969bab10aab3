/* bpftrace 0.26's macros expanded at their calls (macro_expand.c), run by
 * the parser once a program is read, before sema */
#pragma once
#include <stdbool.h>

#include "ast.h"

struct ParseOpts;
/* Every call of p's macros in its probes replaced by the macro's body;
 * false with err set (0.26's messages) */
bool macro_expand(Program *p, const struct ParseOpts *opts, Error *err);
