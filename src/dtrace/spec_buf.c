/* D's speculative buffers in user space: records tagged with a
 * speculation id wait here until their commit (printed as if they had just
 * come) or discard; the kernel side is dtrace/dfunc_spec.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime_d.h"

typedef struct SpecRec {
	struct SpecRec *next;
	size_t size;
	uint8_t data[];
} SpecRec;

struct SpecBufs {
	SpecRec *head[D_NSPEC_MAX + 1], *tail[D_NSPEC_MAX + 1];
	uint64_t drops_told; /* speculative drops already reported */
};

static struct SpecBufs *bufs(Runtime *rt)
{
	DRunState *ds = d_state(rt);
	if (!ds->spec)
		ds->spec = xcalloc(1, sizeof(*ds->spec));
	return ds->spec;
}

void spec_hold(Runtime *rt, unsigned id, const void *data, size_t size)
{
	if (id > D_NSPEC_MAX)
		return;
	struct SpecBufs *b = bufs(rt);
	SpecRec *r = xmalloc(sizeof(SpecRec) + size);
	r->next = NULL;
	r->size = size;
	memcpy(r->data, data, size);
	uint64_t w; /* untagged: replayed as an ordinary record */
	memcpy(&w, r->data, 8);
	w &= (1ULL << EVENT_SPEC_SHIFT) - 1;
	memcpy(r->data, &w, 8);
	if (b->tail[id])
		b->tail[id]->next = r;
	else
		b->head[id] = r;
	b->tail[id] = r;
}

/* commit: each held record through the event handler, in order; discard:
 * dropped.  A bad or empty id does nothing (as DTrace's inactive ones). */
void spec_release(Runtime *rt, uint64_t id, bool commit)
{
	struct SpecBufs *b = d_state(rt)->spec;
	if (!b || id == 0 || id > D_NSPEC_MAX)
		return;
	SpecRec *r = b->head[id];
	b->head[id] = b->tail[id] = NULL;
	while (r) {
		SpecRec *next = r->next;
		if (commit)
			events_handle(rt, r->data, r->size);
		free(r);
		r = next;
	}
}

/* "dtrace: N speculative drops" for the drops since the last report */
void spec_report_drops(Runtime *rt)
{
	if (!rt->sc->uses_spec || !rt->control)
		return;
	uint64_t n = rt->control[D_CTL_DROPS / 8];
	struct SpecBufs *b = bufs(rt);
	if (n <= b->drops_told)
		return;
	uint64_t d = n - b->drops_told;
	b->drops_told = n;
	fflush(rt->out.f);
	fprintf(stderr, "dtrace: %llu speculative drop%s\n", (unsigned long long)d, d == 1 ? "" : "s");
}

void spec_free(Runtime *rt)
{
	DRunState *ds = d_state(rt);
	for (unsigned i = 0; ds->spec && i <= D_NSPEC_MAX; i++)
		spec_release(rt, i, false);
	free(ds->spec);
	ds->spec = NULL;
}
