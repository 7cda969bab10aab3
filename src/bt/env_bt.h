/* bpftrace 0.17's environment variables (bpftrace(8)), read and checked as
 * bpftrace reads them, with its messages. */
#pragma once
#include <stdbool.h>
#include <stdint.h>

/* A number as bpftrace reads one (std::stoull: leading blanks and digits,
 * "-1" wraps); no digits at all or overflow is its error.  *out is left
 * alone when the variable is unset. */
bool env_uint64(const char *name, uint64_t *out);
/* A number as env_uint64 reads it, then held to sonde's range lo..hi
 * (def when unset); false after a message. */
bool env_ranged(const char *name, uint64_t def, uint64_t lo, uint64_t hi, uint64_t *out);
/* The switches (BPFTRACE_NO_CPP_DEMANGLE, BPFTRACE_NO_USER_SYMBOLS,
 * BPFTRACE_CACHE_USER_SYMBOLS) and BPFTRACE_LOG_SIZE, checked as bpftrace
 * checks them: false after its message. Of these sonde acts on
 * BPFTRACE_NO_USER_SYMBOLS only (env_switch_on). */
bool env_check_unused(void);
/* A switch checked by env_check_unused: whether it is "1" */
bool env_switch_on(const char *name);
