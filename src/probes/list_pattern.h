/* `-l PATTERN` checked as bpftrace 0.17's parser checks it (list_pattern.c). */
#pragma once
#include "../lang/diag.h"

/* The pattern with whitespace dropped and strings unquoted (malloc'd), or
 * NULL with err set to bpftrace's parse error (source "stdin", line 1). */
char *list_pattern_parse(const char *pattern, Error *err);
