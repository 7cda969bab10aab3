/* Reading a whole map in a few system calls (BPF_MAP_LOOKUP_BATCH): a
 * --metrics scrape reads every map while the event loop waits for it, and
 * one get_next_key plus one lookup per key is two system calls per entry.
 * Entries come in the map's own order, as map_read_entries gives them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "output.h"

#define BATCH 1024 /* entries per call; a larger hash bucket asks for more */

typedef struct Raw {
	char *keys, *vals; /* key_size bytes each; ncpu slots of round8(val_size) each */
	int n, cap;
} Raw;

static void raw_grow(Raw *r, int want, size_t ks, size_t vs)
{
	if (r->n + want <= r->cap)
		return;
	while (r->n + want > r->cap)
		r->cap = r->cap ? r->cap * 2 : BATCH;
	r->keys = xrealloc(r->keys, (size_t)r->cap * ks);
	r->vals = xrealloc(r->vals, (size_t)r->cap * vs);
}

/* every entry into r; false when the kernel cannot batch this map */
static bool read_raw(const MapDesc *m, Raw *r, size_t ks, size_t vs)
{
	char *token = xmalloc(ks + 8); /* a hash map's is a bucket number, an array's a key */
	void *in = NULL;
	uint32_t want = BATCH;
	for (;;) {
		raw_grow(r, (int)want, ks, vs);
		uint32_t count = want;
		int e = bpf_map_lookup_batch(m->fd, in, token, r->keys + (size_t)r->n * ks,
					     r->vals + (size_t)r->n * vs, &count, NULL);
		if (e && errno == ENOSPC && !count) { /* one bucket holds more */
			want *= 2;
			continue;
		}
		r->n += (int)count;
		if (e) {
			bool end = errno == ENOENT;
			free(token);
			return end;
		}
		in = token;
	}
}

int map_read_batched(const MapDesc *m, MapEntry **entries, void **mem)
{
	size_t kraw = (size_t)(m->key_size > 0 ? m->key_size : 8);
	int ncpu = m->percpu ? libbpf_num_possible_cpus() : 1;
	if (ncpu < 1)
		ncpu = 1;
	size_t vslot = round8((size_t)m->val_size), vraw = vslot * (size_t)ncpu;
	Raw r = {0};
	if (!read_raw(m, &r, kraw, vraw)) {
		free(r.keys);
		free(r.vals);
		return map_read(m, entries, mem);
	}
	/* one block, so the caller frees it with free(): keys, then values */
	size_t ks = round8(kraw);
	char *blk = xcalloc((size_t)r.n + 1, ks + vslot);
	char *keys = blk, *vals = blk + ((size_t)r.n + 1) * ks;
	MapEntry *e = xcalloc((size_t)r.n + 1, sizeof(MapEntry));
	for (int i = 0; i < r.n; i++) {
		char *k = keys + (size_t)i * ks, *v = vals + (size_t)i * vslot;
		const char *raw = r.vals + (size_t)i * vraw;
		memcpy(k, r.keys + (size_t)i * kraw, kraw);
		if (!m->percpu)
			memcpy(v, raw, (size_t)m->val_size);
		for (int c = 0; m->percpu && c < ncpu; c++)
			agg_merge(m->val, v, raw + (size_t)c * vslot);
		e[i] = (MapEntry){k, v};
	}
	int got = r.n;
	if (!got && !m->key && m->val->kind == TY_COUNT) /* as map_read: a keyless count() is 0 */
		e[got++] = (MapEntry){keys, vals};
	free(r.keys);
	free(r.vals);
	*entries = e;
	*mem = blk;
	return got;
}
