/* Kernel listings cached per boot and module set: see kcache.h.
 *
 * A copy is valid while the boot (/proc/sys/kernel/random/boot_id) and the
 * loaded modules (name, size, state and address of each line of
 * /proc/modules; not the use counts, which change all the time) are those
 * it was saved under: the kernel adds traceable functions and blacklist
 * entries only with a module, and drops a module's init functions when its
 * state leaves "Loading".  Copies are root's: a directory and files that
 * another user could write are not trusted. */
#include "kcache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../util/util.h"

#define KCACHE_DIR "/run/sonde"

/* FNV-1a of the fields of /proc/modules that say which code is loaded:
 * "NAME SIZE USES BY STATE ADDR..." keeps fields 1, 2, 5 and 6 */
static uint64_t modules_hash(void)
{
	char *text = read_file_all("/proc/modules", NULL);
	uint64_t h = 14695981039346656037ull;
	int field = 1;
	for (const char *p = text; p && *p; p++) {
		if (*p == '\n')
			field = 1;
		else if (*p == ' ')
			field++;
		if (field <= 2 || field == 5 || field == 6 || *p == '\n')
			h = (h ^ (uint8_t)*p) * 1099511628211ull;
	}
	free(text);
	return h;
}

/* The first line of a valid copy; false if the boot has no id.  Made once
 * a process: reading boot_id and /proc/modules costs a few ms under
 * emulation, and the copies a run reads must agree anyway. */
static bool cache_key(char *key, size_t n)
{
	static char cached[160];
	static int state = -1; /* -1 not made, 0 no boot id, 1 made */
	if (state < 0) {
		/* one read: each read of boot_id costs ~1 ms under emulation
		 * (stdio's make three) */
		char boot[64];
		int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
		ssize_t n = fd >= 0 ? read(fd, boot, sizeof(boot) - 1) : -1;
		if (fd >= 0)
			close(fd);
		state = n > 0;
		if (n > 0) {
			boot[n] = 0;
			boot[strcspn(boot, "\n")] = 0;
			snprintf(cached, sizeof(cached), "sonde kernel listing 1 %s %016llx\n", boot,
				 (unsigned long long)modules_hash());
		}
	}
	snprintf(key, n, "%s", cached);
	return state > 0;
}

static bool ours(const struct stat *st)
{
	return st->st_uid == geteuid() && !(st->st_mode & 022);
}

/* The saved copy's contents after the key, or NULL when absent or stale */
static char *cache_load(const char *file, const char *key, size_t *len)
{
	int fd = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	size_t klen = strlen(key);
	char *buf = NULL;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && ours(&st) && (size_t)st.st_size >= klen) {
		size_t size = (size_t)st.st_size, got = 0;
		buf = xmalloc(size + 1);
		ssize_t r;
		while (got < size && (r = read(fd, buf + got, size - got)) > 0)
			got += (size_t)r;
		if (got != size || memcmp(buf, key, klen)) {
			free(buf);
			buf = NULL;
		} else {
			memmove(buf, buf + klen, size - klen);
			buf[size - klen] = 0;
			if (len)
				*len = size - klen;
		}
	}
	close(fd);
	return buf;
}

static bool write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}

/* Written aside and renamed into place: a reader sees a whole copy or none */
static void cache_save(const char *name, const char *file, const char *key, const char *text,
		       size_t len)
{
	struct stat st;
	if (mkdir(KCACHE_DIR, 0700) && errno != EEXIST)
		return;
	if (lstat(KCACHE_DIR, &st) || !S_ISDIR(st.st_mode) || !ours(&st))
		return;
	char tmp[256];
	snprintf(tmp, sizeof(tmp), KCACHE_DIR "/.%s.XXXXXX", name);
	int fd = mkstemp(tmp);
	if (fd < 0)
		return;
	bool ok = write_all(fd, key, strlen(key)) && write_all(fd, text, len);
	close(fd);
	if (!ok || rename(tmp, file))
		unlink(tmp);
}

/* Made and saved when the copy is absent or stale */
static char *cache_make(const char *name, const char *file, const char *key, bool keyed,
			char *(*make)(void *arg, size_t *len), void *arg, size_t *len)
{
	size_t n = 0;
	char *text = make(arg, &n);
	if (text && keyed)
		cache_save(name, file, key, text, n);
	if (text && len)
		*len = n;
	return text;
}

char *kcache_get(const char *name, char *(*make)(void *arg, size_t *len), void *arg, size_t *len)
{
	char key[160], file[256];
	snprintf(file, sizeof(file), KCACHE_DIR "/%s", name);
	bool keyed = cache_key(key, sizeof(key));
	char *text = keyed ? cache_load(file, key, len) : NULL;
	return text ? text : cache_make(name, file, key, keyed, make, arg, len);
}

/* A valid copy mapped read-only, past its key; NULL if absent or stale */
static const char *cache_map(const char *file, const char *key, size_t *len, KcacheHold *hold)
{
	int fd = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	size_t klen = strlen(key);
	const char *text = NULL;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && ours(&st) && (size_t)st.st_size > klen) {
		size_t size = (size_t)st.st_size;
		char *m = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m != MAP_FAILED && !memcmp(m, key, klen)) {
			text = m + klen;
			*len = size - klen;
			hold->map = m;
			hold->map_len = size;
		} else if (m != MAP_FAILED) {
			munmap(m, size);
		}
	}
	close(fd);
	return text;
}

const char *kcache_map(const char *name, char *(*make)(void *arg, size_t *len), void *arg, size_t *len,
		       KcacheHold *hold)
{
	char key[160], file[256];
	snprintf(file, sizeof(file), KCACHE_DIR "/%s", name);
	bool keyed = cache_key(key, sizeof(key));
	*hold = (KcacheHold){0};
	const char *text = keyed ? cache_map(file, key, len, hold) : NULL;
	if (!text)
		text = hold->made = cache_make(name, file, key, keyed, make, arg, len);
	return text;
}

void kcache_unmap(KcacheHold *hold)
{
	if (hold->map)
		munmap(hold->map, hold->map_len);
	free(hold->made);
	*hold = (KcacheHold){0};
}

static char *read_path(void *path, size_t *len)
{
	return read_file_all(path, len);
}

char *kcache_read(const char *name, const char *path, size_t *len)
{
	return kcache_get(name, read_path, (void *)path, len);
}
