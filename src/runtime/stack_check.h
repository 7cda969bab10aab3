/* Checking the frames of a user stack walked through frame pointers
 * (stack_check.c): which of them are real callers. */
#pragma once
#include <stdbool.h>
#include <stdint.h>

struct SymCtx;

/* Whether ret, a return address the walk found above inner_ip, follows a
 * call instruction (direct calls: to inner_ip's function or a PLT stub). */
bool ustack_caller_ok(struct SymCtx *sc, int pid, uint64_t ret, uint64_t inner_ip);
/* How many frames of ips[0..n) (innermost first) are real: the walk is
 * cut at the first frame that is not. */
int ustack_trusted(struct SymCtx *sc, int pid, const uint64_t *ips, int n);
