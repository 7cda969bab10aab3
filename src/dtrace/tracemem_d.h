/* D's dumps of bytes (tracemem_d.c): tracemem(), and trace() of strings
 * and char arrays, printed by D's events (events_d.c). */
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "../runtime/output.h"

/* D's tracemem(): dtrace(1)'s hex and ASCII dump of n bytes */
void tracemem_print_d(const OutCtx *o, const uint8_t *d, size_t n);
/* D's trace() of a string's n bytes (d[n] is 0): as text through fmt when
 * every byte before its end is printable, else as tracemem()'s dump */
void trace_string_d(const OutCtx *o, const uint8_t *d, size_t n, const char *fmt);
/* D's trace() of a char array's n bytes: as text only when printable bytes
 * are followed by nothing but NULs (libdtrace's dt_print_bytes), so bytes
 * past the first NUL show as the dump */
void trace_chars_d(const OutCtx *o, const uint8_t *d, size_t n, const char *fmt);
