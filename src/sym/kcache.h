/* Kernel listings that change only when modules come and go
 * (available_filter_functions, the kprobe blacklist), kept between runs
 * under /run/sonde (a tmpfs: gone at reboot).  Formatting them costs the
 * kernel 0.3-0.5 s of emulated time; a copy costs a few ms to read. */
#pragma once
#include <stddef.h>

/* The contents of path (NUL-terminated, *len without the NUL; len may be
 * NULL), from the copy saved as name when it was saved in this boot with
 * the same modules loaded, else read from path and saved; NULL if path
 * cannot be read. */
char *kcache_read(const char *name, const char *path, size_t *len);
/* The same for a text sonde derives from the kernel's (make(arg, &len)
 * returns it malloc'd, or NULL): the copy saved as name if valid, else
 * made and saved. */
char *kcache_get(const char *name, char *(*make)(void *arg, size_t *len), void *arg, size_t *len);
/* What kcache_map() returned, for kcache_unmap(): the mapping, or the
 * text made when there was no valid copy */
typedef struct KcacheHold {
	void *map;
	size_t map_len;
	char *made;
} KcacheHold;
/* kcache_get() for a big text a run reads a little of: a valid copy is
 * mapped (only the pages read are loaded), else made and saved.  Not
 * NUL-terminated; kept until kcache_unmap(hold). */
const char *kcache_map(const char *name, char *(*make)(void *arg, size_t *len), void *arg, size_t *len,
		       KcacheHold *hold);
void kcache_unmap(KcacheHold *hold);
