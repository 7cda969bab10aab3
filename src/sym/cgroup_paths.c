/* cgroup ids to paths: a cgroup's id is the inode number of its directory
 * in every hierarchy it belongs to, so each mounted hierarchy is searched
 * for a directory with that inode. */
#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "cgroup_paths.h"

typedef struct Hier {
	char name[1024];
	char root[1024];
} Hier;

/* Depth-first search below dir (path relative to the root in rel) for a
 * directory whose inode is id; its relative path goes to out. */
static bool find_inode(const char *dir, const char *rel, uint64_t id, char *out, size_t n,
		       int depth)
{
	DIR *d = opendir(dir);
	if (!d)
		return false;
	bool found = false;
	struct dirent *ent;
	while (!found && (ent = readdir(d))) {
		if (ent->d_type != DT_DIR || !strcmp(ent->d_name, ".") || !strcmp(ent->d_name, ".."))
			continue;
		char sub[4096], subrel[4096];
		snprintf(sub, sizeof(sub), "%s/%s", dir, ent->d_name);
		snprintf(subrel, sizeof(subrel), "%s/%s", rel, ent->d_name);
		if (ent->d_ino == id) {
			snprintf(out, n, "%s", subrel);
			found = true;
		} else if (depth < 64) {
			found = find_inode(sub, subrel, id, out, n, depth + 1);
		}
	}
	closedir(d);
	return found;
}

static void path_in(const Hier *h, uint64_t id, char *out, size_t n)
{
	struct stat st;
	out[0] = 0;
	if (stat(h->root, &st) == 0 && st.st_ino == id)
		snprintf(out, n, "/");
	else
		find_inode(h->root, "", id, out, n, 0);
}

static int hier_cmp(const void *a, const void *b)
{
	const Hier *x = a, *y = b;
	bool xu = !strcmp(x->name, "unified"), yu = !strcmp(y->name, "unified");
	if (xu != yu)
		return xu ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The mounted hierarchies whose name matches filter. */
static int read_hierarchies(Hier *out, int max, const char *filter)
{
	FILE *f = fopen("/proc/mounts", "r");
	if (!f)
		return 0;
	char dev[256], mnt[1024], fstype[64];
	int n = 0;
	while (n < max && fscanf(f, "%255s %1023s %63s%*[^\n]", dev, mnt, fstype) == 3) {
		bool v2 = !strcmp(dev, "cgroup2");
		if (!v2 && strcmp(dev, "cgroup"))
			continue;
		const char *base = strrchr(mnt, '/');
		snprintf(out[n].name, sizeof(out[n].name), "%s", v2 ? "unified" : base ? base + 1 : mnt);
		snprintf(out[n].root, sizeof(out[n].root), "%s", mnt);
		if (!filter || fnmatch(filter, out[n].name, 0) == 0)
			n++;
	}
	fclose(f);
	qsort(out, (size_t)n, sizeof(Hier), hier_cmp);
	return n;
}

void cgroup_paths_format(StrBuf *sb, uint64_t id, const char *filter)
{
	Hier h[32];
	int n = read_hierarchies(h, 32, filter);
	for (int i = 0; i < n; i++) {
		char path[4096];
		path_in(&h[i], id, path, sizeof(path));
		sb_printf(sb, "%s%s:%s", i ? "," : "", h[i].name, path);
	}
}

bool cgroup_id_of_path(const char *path, uint64_t *id)
{
	/* a handle of 8 bytes, as bpftrace asks: a file system whose handles
	 * are longer (tmpfs) fails with EOVERFLOW, as there */
	union {
		struct file_handle fh;
		char space[sizeof(struct file_handle) + 8];
	} h;
	int mount_id;
	h.fh.handle_bytes = 8;
	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0) < 0)
		return false;
	memcpy(id, h.fh.f_handle, 8);
	return true;
}
