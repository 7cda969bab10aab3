/* --probe-filter REGEX (bpftrace 0.26): only the probes whose name matches */
#pragma once
#include <stdbool.h>

#include "../lang/ast.h"

/* Drops from p the attach points whose text REGEX does not match (searched
 * anywhere in it, as bpftrace's std::regex_search), and the probes left with
 * none; begin/end are kept.  False after a message when the REGEX is bad or
 * no probe matches. */
bool bt_probe_filter(Program *p, const char *regex);
