/* The -e trace= selection language (names, classes, negation) over the
 * system call table of util/syscall_table.h. */
#pragma once
#include <stdbool.h>
#include <stddef.h>

#include "../util/syscall_table.h"

/* Parse one -e expression ("trace=open,%file", "!write", "read", "all")
 * into sel (true = traced).  *seen_trace tells whether a trace= set was
 * given before (the first one starts from empty, a negated one from all).
 * False with a message in err for an unknown name or class. */
bool syscall_select(const char *expr, bool sel[SYSCALL_MAX], bool *seen_trace, char *err,
		    size_t errlen);
