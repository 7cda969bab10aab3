/* The unit tests' readers and their caches (sym/symctx.h): one context for
 * the test program, as sonde makes one per run; each cache is made on its
 * reader's first use, so an empty SymCtx is a ready one. */
#pragma once
#include "sym/symctx.h"

static SymCtx test_syms __attribute__((unused));
