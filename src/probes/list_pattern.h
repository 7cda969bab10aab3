/* `-l PATTERN` checked as bpftrace 0.17's parser checks it (list_pattern.c). */
#pragma once
#include "../lang/diag.h"

/* The pattern with whitespace dropped and strings unquoted (malloc'd), or
 * NULL with err set to bpftrace's parse error (source "stdin", line 1). */
char *list_pattern_parse(const char *pattern, Error *err);

/* What bpftrace's parser makes of the pattern: attach points to list; no
 * attach point at all (an empty or blank pattern, or a C definition:
 * "struct", "union" or "enum" after leading whitespace or before a ':',
 * which its grammar takes before any probe); or, for a C definition
 * without either, nothing to list and no error. */
typedef enum { LIST_PROBES, LIST_NO_ATTACH_POINTS, LIST_NOTHING } ListPatternKind;
ListPatternKind list_pattern_kind(const char *pattern);
/* bpftrace's message for those: "stdin:1:1-1: ERROR: No attach points for
 * probe", the pattern's first line (when not empty) and an empty underline;
 * for an empty pattern only "ERROR: No attach points for probe". */
void list_pattern_print_no_attach_points(FILE *out, const char *pattern);
