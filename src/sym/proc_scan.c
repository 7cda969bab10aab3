/* The running processes' mapped files, read once per run (proc_scan.h). */
#include "proc_scan.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../util/util.h"

typedef VEC(ProcFile) ProcFileVec;
typedef VEC(ProcMaps) ProcMapsVec;

typedef struct ProcScanCache {
	bool done;
	ProcMapsVec procs;
} ProcScanCache;

static void proc_maps_free(ProcMaps *m)
{
	for (int i = 0; i < m->n; i++)
		free(m->files[i].path);
	free(m->files);
	free(m->exe);
}

static void proc_scan_free(void *cache)
{
	ProcScanCache *c = cache;
	for (int i = 0; i < c->procs.n; i++)
		proc_maps_free(&c->procs.v[i]);
	vec_free(&c->procs);
	free(c);
}

static char *exe_of(int pid)
{
	char link[64], path[4096];
	snprintf(link, sizeof(link), "/proc/%d/exe", pid);
	ssize_t k = readlink(link, path, sizeof(path) - 1);
	if (k <= 0)
		return NULL;
	path[k] = 0;
	return xstrdup(path);
}

/* a file's mapping: the first of the file is kept, later ones only say
 * whether it is executable */
static void note_mapping(ProcFileVec *v, uint64_t lo, uint64_t hi, uint64_t off, bool exec, const char *path)
{
	for (int i = v->n - 1; i >= 0; i--)
		if (!strcmp(v->v[i].path, path)) {
			v->v[i].exec |= exec;
			return;
		}
	ProcFile f = {lo, hi, off, exec, xstrdup(path)};
	vec_push(v, f);
}

/* pid's mapped files; false when the process is gone */
static bool read_maps(int pid, ProcMaps *out)
{
	char mp[64], line[4096 + 128];
	snprintf(mp, sizeof(mp), "/proc/%d/maps", pid);
	FILE *f = fopen(mp, "re");
	if (!f)
		return false;
	ProcFileVec v = {0};
	while (fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi, off;
		char perms[8] = "";
		char *p = strchr(line, '/');
		if (!p || sscanf(line, "%llx-%llx %7s %llx", &lo, &hi, perms, &off) != 4)
			continue;
		p[strcspn(p, "\n")] = 0;
		note_mapping(&v, lo, hi, off, perms[2] == 'x', p);
	}
	fclose(f);
	*out = (ProcMaps){.pid = pid, .exe = exe_of(pid), .files = v.v, .n = v.n};
	return true;
}

static ProcMaps *cached(ProcScanCache *c, int pid)
{
	for (int i = 0; i < c->procs.n; i++)
		if (c->procs.v[i].pid == pid)
			return &c->procs.v[i];
	return NULL;
}

/* the old entry still true: the same executable, and not stale to the caller */
static bool still_true(const ProcMaps *old, ProcStaleFn stale, void *arg)
{
	char *exe = exe_of(old->pid);
	bool same = (!exe && !old->exe) || (exe && old->exe && !strcmp(exe, old->exe));
	free(exe);
	return same && !(stale && stale(old, arg));
}

/* every process of /proc: the old scan's entry when still true, else read */
static void rescan(ProcScanCache *c, ProcStaleFn stale, void *arg)
{
	ProcMapsVec now = {0};
	DIR *d = opendir("/proc");
	for (struct dirent *de; d && (de = readdir(d));) {
		int pid = atoi(de->d_name);
		ProcMaps *old = pid > 0 ? cached(c, pid) : NULL, m;
		if (old && still_true(old, stale, arg)) {
			vec_push(&now, *old);
			old->pid = 0; /* moved */
		} else if (pid > 0 && read_maps(pid, &m))
			vec_push(&now, m);
	}
	if (d)
		closedir(d);
	for (int i = 0; i < c->procs.n; i++)
		if (c->procs.v[i].pid)
			proc_maps_free(&c->procs.v[i]);
	vec_free(&c->procs);
	c->procs = now;
	c->done = true;
}

const ProcMaps *proc_scan(SymCtx *sc, int *n)
{
	ProcScanCache *c = SYM_CACHE(sc, procs, proc_scan_free);
	if (!c->done)
		rescan(c, NULL, NULL);
	*n = c->procs.n;
	return c->procs.v;
}

void proc_file_path(const ProcMaps *m, const ProcFile *f, char *out, size_t n)
{
	if (!strncmp(f->path, "/memfd:", 7) || strstr(f->path, " (deleted)"))
		snprintf(out, n, "/proc/%d/map_files/%llx-%llx", m->pid, (unsigned long long)f->lo,
			 (unsigned long long)f->hi);
	else
		snprintf(out, n, "%s", f->path);
}

const ProcMaps *proc_scan_refresh(SymCtx *sc, ProcStaleFn stale, void *arg, int *n)
{
	ProcScanCache *c = SYM_CACHE(sc, procs, proc_scan_free);
	if (c->done)
		rescan(c, stale, arg);
	return proc_scan(sc, n);
}
