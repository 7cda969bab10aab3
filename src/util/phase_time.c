/* Start-up phase timing (SONDE_TIMES=1); see phase_time.h. */
#include "phase_time.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

/* The process's start in CLOCK_BOOTTIME nanoseconds: field 22 of
 * /proc/self/stat, in clock ticks since boot; 0 if unreadable. */
static long long process_start_ns(void)
{
	char *s = read_file_all("/proc/self/stat", NULL);
	const char *p = s ? strrchr(s, ')') : NULL; /* comm may hold spaces */
	long long ticks = 0;
	for (int field = 2; p && *p && field < 22; p++)
		if (*p == ' ' && ++field == 22)
			ticks = atoll(p + 1);
	free(s);
	return ticks * (1000000000LL / sysconf(_SC_CLK_TCK));
}

void phase_time(const char *what)
{
	static int enabled = -1;
	static long long start;
	if (enabled < 0) {
		const char *e = getenv("SONDE_TIMES");
		enabled = e && *e && strcmp(e, "0");
		if (enabled)
			start = process_start_ns();
	}
	if (!enabled)
		return;
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	long long now = ts.tv_sec * 1000000000LL + ts.tv_nsec;
	fprintf(stderr, "sonde: %.1f ms: %s\n", (double)(now - start) / 1e6, what);
}
