/* bpftrace 0.26's map declarations `let @m = hash(N);` (parse_mapdecl.c), a
 * top-level item of parser.c's table when ParseOpts.map_decls is on */
#pragma once
#include <stdbool.h>

#include "../util/util.h"

struct Parser;
/* Whether `let @` starts at the lexer's position (and the rule is on) */
bool at_map_decl(struct Parser *ps);
/* The declaration into the program's map_decls, the lexer left after its
 * ';'; false with the error set */
bool parse_map_decl(struct Parser *ps, StrBuf *cdefs);
