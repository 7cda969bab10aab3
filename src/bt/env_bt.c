/* bpftrace 0.17's environment variables: the checks and words of bpftrace's
 * own reading of them, so that a bad value fails the same way. */
#include "env_bt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool env_uint64(const char *name, uint64_t *out)
{
	const char *v = getenv(name);
	if (!v)
		return true;
	char *end;
	errno = 0;
	unsigned long long n = strtoull(v, &end, 10);
	if (end == v || errno) {
		fprintf(stderr, "ERROR: Env var '%s' did not contain a valid uint64_t, or was "
			"zero-valued.\n", name);
		return false;
	}
	*out = n;
	return true;
}

bool env_ranged(const char *name, uint64_t def, uint64_t lo, uint64_t hi, uint64_t *out)
{
	*out = def;
	if (!env_uint64(name, out))
		return false;
	if (*out >= lo && *out <= hi)
		return true;
	fprintf(stderr, "ERROR: %s must be from %llu to %llu in sonde, got '%s'\n", name,
		(unsigned long long)lo, (unsigned long long)hi, getenv(name));
	return false;
}

/* bpftrace's switches: exactly "0" or "1" */
static bool env_switch(const char *name)
{
	const char *v = getenv(name);
	if (!v || !strcmp(v, "0") || !strcmp(v, "1"))
		return true;
	fprintf(stderr, "ERROR: Env var '%s' did not contain a valid value (0 or 1).\n", name);
	return false;
}

bool env_switch_on(const char *name)
{
	const char *v = getenv(name);
	return v && !strcmp(v, "1");
}

bool env_check_unused(void)
{
	uint64_t log_size;
	return env_switch("BPFTRACE_NO_CPP_DEMANGLE") && env_switch("BPFTRACE_NO_USER_SYMBOLS") &&
	       env_switch("BPFTRACE_CACHE_USER_SYMBOLS") && env_uint64("BPFTRACE_LOG_SIZE", &log_size);
}
