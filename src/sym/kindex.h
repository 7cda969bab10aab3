/* The kprobe index: every traceable function sorted by name, with its
 * address and whether it is on the kprobe blacklist, as text made once per
 * boot (kfuncs.c keeps it with kcache.c) and searched where it lies, a
 * mapped file, by binary search: a lookup touches a few pages of it. */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct KIndexRow {
	const char *name, *module; /* module NULL: vmlinux */
	uint64_t addr;		   /* 0: none to attach by */
	bool black;		   /* on the kprobe blacklist */
} KIndexRow;

/* The index's text for rows in available_filter_functions' order: sorted
 * by name, one name's rows kept in that order; malloc'd, *len its length */
char *kindex_make(const KIndexRow *rows, int n, size_t *len);

typedef struct KIndex {
	const char *text; /* NULL: none */
	size_t len;
} KIndex;

/* One line of the index, its fields pointing into it (not NUL-terminated) */
typedef struct KIndexLine {
	const char *name, *module; /* module NULL: vmlinux */
	size_t name_len, module_len;
	uint64_t addr;
	bool black;
} KIndexLine;

/* The first line named func (in file order) that want(line, arg) takes */
bool kindex_find(KIndex ix, const char *func, bool (*want)(const KIndexLine *, const void *),
		 const void *arg, KIndexLine *out);
/* want for kindex_find: the line is in module arg (a name; NULL: any) */
bool kindex_line_in(const KIndexLine *l, const void *module);
/* A function a wildcard matched: what attaching it needs */
typedef struct KIndexMatch {
	char *name;    /* malloc'd */
	uint64_t addr; /* its vmlinux line's address, 0 if none */
	bool black;    /* on the kprobe blacklist */
} KIndexMatch;

/* The functions whose names match glob ('*', '?'), in module unless NULL,
 * without .part/.cold pieces: sorted, each name once; *out malloc'd */
int kindex_match(KIndex ix, const char *module, const char *glob, KIndexMatch **out);
void kindex_match_free(KIndexMatch *v, int n);
