/* A string-keyed index (open addressing, FNV-1a): name -> int in constant
 * time, for the compiler's tables that a script of thousands of clauses
 * would otherwise search from the start for every name. Keys are not
 * copied: they must outlive the index (arena strings). */
#pragma once
#include <stdbool.h>

typedef struct StrIndex {
	const char **keys; /* NULL: an empty slot */
	int *vals;
	int cap, n;        /* cap: a power of two, more than twice n */
} StrIndex;

/* the value kept for key, or NULL */
int *str_index_find(const StrIndex *ix, const char *key);
/* key -> val (replacing a value kept for it) */
void str_index_put(StrIndex *ix, const char *key, int val);
void str_index_free(StrIndex *ix);
