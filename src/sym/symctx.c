/* The readers' caches (see symctx.h). */
#include "symctx.h"

#include <string.h>

#include "../util/util.h"

SymCtx *sym_ctx_new(void)
{
	return xcalloc(1, sizeof(SymCtx));
}

void *sym_ctx_part(void *slot, size_t size)
{
	void **p = slot;
	if (!*p)
		*p = xcalloc(1, size);
	return *p;
}
