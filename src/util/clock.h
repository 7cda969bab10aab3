/* Clocks read the same way everywhere. */
#pragma once
#include <stdint.h>

/* CLOCK_MONOTONIC in nanoseconds */
uint64_t mono_ns(void);
