/* Minimal unit-test harness: CHECK() records a pass or a failure with its
 * line; check_done() prints "NAME: N passed, N failed" and the exit status. */
#pragma once
#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (cond) {                                                    \
			check_passed++;                                        \
		} else {                                                       \
			check_failed++;                                        \
			fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__,         \
				__LINE__, #cond);                              \
		}                                                              \
	} while (0)

#define CHECK_STR(got, want)                                                   \
	do {                                                                   \
		const char *g_ = (got), *w_ = (want);                          \
		if (g_ && w_ && !strcmp(g_, w_)) {                             \
			check_passed++;                                        \
		} else {                                                       \
			check_failed++;                                        \
			fprintf(stderr,                                        \
				"%s:%d: FAIL: %s\n  got:  %s\n  want: %s\n",   \
				__FILE__, __LINE__, #got, g_ ? g_ : "(null)",  \
				w_ ? w_ : "(null)");                           \
		}                                                              \
	} while (0)

static inline int check_done(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
	return check_failed ? 1 : 0;
}
