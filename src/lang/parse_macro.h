/* bpftrace 0.26's macros `macro name(params) { body }` (parse_macro.c), a
 * top-level item of parser.c's table when ParseOpts.macros is on */
#pragma once
#include <stdbool.h>

#include "../util/util.h"

struct Parser;
/* Whether `macro` and a space start at the lexer's position (and the rule
 * is on) */
bool at_macro(struct Parser *ps);
/* The definition into the program's macros, the lexer left after its
 * closing '}'; false with the error set */
bool parse_macro(struct Parser *ps, StrBuf *cdefs);
