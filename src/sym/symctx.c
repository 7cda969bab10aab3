/* The readers' caches (see symctx.h). */
#include "symctx.h"

#include <stdlib.h>
#include <string.h>

#include "../util/util.h"

SymCtx *sym_ctx_new(void)
{
	return xcalloc(1, sizeof(SymCtx));
}

void *sym_ctx_part(SymCtx *sc, void *slot, size_t size, SymCacheFree free_fn)
{
	void **p = slot;
	if (!*p) {
		if (sc->nmade == SYM_CACHES_MAX)
			abort(); /* a new reader: raise SYM_CACHES_MAX */
		*p = xcalloc(1, size);
		sc->made[sc->nmade].slot = p;
		sc->made[sc->nmade++].free = free_fn;
	}
	return *p;
}

void sym_ctx_free(SymCtx *sc)
{
	if (!sc)
		return;
	for (int i = sc->nmade - 1; i >= 0; i--) {
		sc->made[i].free(*sc->made[i].slot);
		*sc->made[i].slot = NULL;
	}
	free(sc);
}
