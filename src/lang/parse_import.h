/* bpftrace 0.26's `import "PATH";` (parse_import.c), a top-level item of
 * parser.c's table when ParseOpts.imports is on */
#pragma once
#include <stdbool.h>

#include "../util/util.h"
#include "diag.h"

struct Parser;
/* Whether `import` starts at the lexer's position (and the rule is on) */
bool at_import(struct Parser *ps);
/* The file's (or directory's) items into the program, the lexer left
 * after the ';'; false with the error set */
bool parse_import(struct Parser *ps, StrBuf *cdefs);
/* An imported file's first C definition, at first (parser.c): its C is
 * read by sema after the program's own */
void import_note_c_defs(struct Parser *ps, Loc first);
