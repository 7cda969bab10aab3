/* Reading values out of byte buffers (map values, event records) that
 * may not be aligned for the type. */
#pragma once
#include <stdint.h>
#include <string.h>

static inline int64_t rd64(const void *p)
{
	int64_t v;
	memcpy(&v, p, 8);
	return v;
}
