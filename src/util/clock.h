/* Clocks read the same way everywhere. */
#pragma once
#include <stdint.h>

/* CLOCK_MONOTONIC in nanoseconds */
uint64_t mono_ns(void);
/* CLOCK_REALTIME - CLOCK_MONOTONIC now, in nanoseconds: added to a
 * monotonic time (bpf_ktime_get_ns, a task's start) it gives the wall clock */
uint64_t wall_offset_ns(void);
