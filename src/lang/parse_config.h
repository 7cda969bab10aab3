/* bpftrace 0.26's `config = { key = value; ... }` (parse_config.c), a
 * top-level item of parser.c's table, read before the probes when
 * ParseOpts.config_block is on */
#pragma once
#include <stdbool.h>

#include "../util/util.h"

struct Parser;
/* Whether `config =` starts at the lexer's position (and the rule is on) */
bool at_config(struct Parser *ps);
/* The block into the program's config, the lexer left after its '}';
 * false with the error set */
bool parse_config(struct Parser *ps, StrBuf *cdefs);
