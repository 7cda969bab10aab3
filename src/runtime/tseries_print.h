/* bpftrace 0.26's tseries() values: the CPUs' slots merged, and their text
 * and JSON (tseries_print.c) */
#pragma once
#include "../lang/types.h"
#include "../util/util.h"

/* dst's slots take src's newer intervals, and combine those of the same one */
void tseries_merge(const Type *t, void *dst, const void *src);
/* the graph of the kept intervals, "<no data>" when there is none */
void tseries_text(StrBuf *sb, const Type *t, const void *v);
/* [{"interval_start": "1970-01-01 00:00:00.500000000", "value": 4}, ...] */
void tseries_json(StrBuf *sb, const Type *t, const void *v);
