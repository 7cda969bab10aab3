#include "clock.h"

#include <time.h>

uint64_t mono_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

uint64_t wall_offset_ns(void)
{
	struct timespec r, m;
	clock_gettime(CLOCK_REALTIME, &r);
	clock_gettime(CLOCK_MONOTONIC, &m);
	return (uint64_t)(r.tv_sec - m.tv_sec) * 1000000000ull + (uint64_t)(r.tv_nsec - m.tv_nsec);
}
