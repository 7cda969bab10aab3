/* The readers' caches (see symctx.h). */
#include "symctx.h"

#include <string.h>

#include "../util/util.h"

/* The one default context (see symctx.h: a transition until the callers
 * pass theirs). */
static SymCtx default_ctx;

SymCtx *sym_ctx_new(void)
{
	return xcalloc(1, sizeof(SymCtx));
}

SymCtx *sym_ctx_default(void)
{
	return &default_ctx;
}

void *sym_ctx_part(void *slot, size_t size)
{
	void **p = slot;
	if (!*p)
		*p = xcalloc(1, size);
	return *p;
}
