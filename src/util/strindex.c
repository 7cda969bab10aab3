#include "strindex.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static unsigned hash(const char *s)
{
	unsigned h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* key's slot, or the empty one where it would go (cap > 0) */
static int slot_of(const StrIndex *ix, const char *key)
{
	unsigned mask = (unsigned)ix->cap - 1, i = hash(key) & mask;
	while (ix->keys[i] && strcmp(ix->keys[i], key))
		i = (i + 1) & mask;
	return (int)i;
}

int *str_index_find(const StrIndex *ix, const char *key)
{
	if (!ix->cap)
		return NULL;
	int i = slot_of(ix, key);
	return ix->keys[i] ? &ix->vals[i] : NULL;
}

static void grow(StrIndex *ix)
{
	StrIndex old = *ix;
	ix->cap = old.cap ? 2 * old.cap : 32;
	ix->keys = xcalloc((size_t)ix->cap, sizeof(*ix->keys));
	ix->vals = xcalloc((size_t)ix->cap, sizeof(*ix->vals));
	for (int i = 0; i < old.cap; i++)
		if (old.keys[i]) {
			int j = slot_of(ix, old.keys[i]);
			ix->keys[j] = old.keys[i];
			ix->vals[j] = old.vals[i];
		}
	free(old.keys);
	free(old.vals);
}

void str_index_put(StrIndex *ix, const char *key, int val)
{
	if (2 * (ix->n + 1) >= ix->cap)
		grow(ix);
	int i = slot_of(ix, key);
	if (!ix->keys[i]) {
		ix->keys[i] = key;
		ix->n++;
	}
	ix->vals[i] = val;
}

void str_index_free(StrIndex *ix)
{
	free(ix->keys);
	free(ix->vals);
	*ix = (StrIndex){0};
}
