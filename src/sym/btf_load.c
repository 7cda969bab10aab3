/* Opening the kernel's BTF (see btf_load.h): vmlinux's once, each module's
 * once, split on vmlinux's (its ids continue after vmlinux's). */
#include "btf_load.h"

#include <bpf/btf.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../util/sort.h"
#include "../util/util.h"
#include "symctx.h"

typedef struct BtfSpace {
	const char *module; /* NULL: vmlinux */
	struct btf *btf;
} BtfSpace;

/* what was opened, in the run's SymCtx */
typedef struct BtfLoadCache {
	BtfSpace spaces[BTF_MAX_SPACES];
	int nspaces;
	bool tried; /* btf_kernel() ran */
	char why[256];
	char **module_names; /* btf_module_names(), once counted */
	int nmodule_names;
	bool modules_listed;
} BtfLoadCache;

static void btf_load_free(void *cache)
{
	BtfLoadCache *c = cache;
	for (int i = c->nspaces - 1; i >= 0; i--) { /* modules' first: split on vmlinux's */
		btf__free(c->spaces[i].btf);
		free((char *)c->spaces[i].module);
	}
	for (int i = 0; i < c->nmodule_names; i++)
		free(c->module_names[i]);
	free(c->module_names);
	free(c);
}

static BtfLoadCache *cache(SymCtx *sc)
{
	return SYM_CACHE(sc, btf, btf_load_free);
}

/* a BTF file named by BPFTRACE_BTF, or NULL */
static const char *btf_env_file(void)
{
	const char *f = getenv("BPFTRACE_BTF");
	return f && *f ? f : NULL;
}

const char *btf_kernel_path(void)
{
	const char *vmlinux = getenv("BPFTRACE_VMLINUX");
	if (btf_env_file())
		return btf_env_file();
	if (access(BTF_VMLINUX, R_OK) != 0 && vmlinux && *vmlinux)
		return vmlinux;
	return BTF_VMLINUX;
}

struct btf *btf_kernel(SymCtx *sc)
{
	BtfLoadCache *c = cache(sc);
	char *why = c->why;
	if (c->tried)
		return c->spaces[0].btf;
	c->tried = true;
	const char *path = btf_kernel_path();
	if (btf_env_file() && access(path, R_OK) != 0) {
		snprintf(why, sizeof(c->why), "cannot read BTF from BPFTRACE_BTF=%s: %s", path,
			 strerror(errno));
		return NULL;
	}
	if (access(path, R_OK) != 0) {
		snprintf(why, sizeof(c->why), "this kernel has no BTF (%s: %s): kernel struct types, "
			 "curtask->... and struct-pointer tracepoint args need it; integer casts, "
			 "C definitions written in the script and everything else still work",
			 path, strerror(errno));
		return NULL;
	}
	struct btf *b = btf__parse(path, NULL); /* raw BTF, or an ELF's .BTF section */
	if (!b) {
		snprintf(why, sizeof(c->why), "cannot read the kernel's BTF from %s: %s", path,
			 strerror(errno));
		return NULL;
	}
	c->spaces[0] = (BtfSpace){NULL, b};
	c->nspaces = 1;
	return b;
}

int btf_space_count(SymCtx *sc)
{
	return cache(sc)->nspaces;
}

struct btf *btf_space(SymCtx *sc, int i)
{
	BtfLoadCache *c = cache(sc);
	return i >= 0 && i < c->nspaces ? c->spaces[i].btf : NULL;
}

int btf_space_index(SymCtx *sc, const struct btf *b)
{
	BtfLoadCache *c = cache(sc);
	for (int i = 0; i < c->nspaces; i++)
		if (c->spaces[i].btf == b)
			return i;
	return -1;
}

/* The modules' BTF files sit beside vmlinux's (/sys/kernel/btf/MODULE). */
static void btf_dir(char *buf, size_t n)
{
	const char *path = BTF_VMLINUX;
	const char *slash = strrchr(path, '/');
	snprintf(buf, n, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
}

struct btf *btf_module(SymCtx *sc, const char *module)
{
	if (!strcmp(module, "vmlinux"))
		return btf_kernel(sc);
	if (!btf_kernel(sc) || strchr(module, '/') || strcmp(btf_kernel_path(), BTF_VMLINUX))
		return NULL; /* a BTF file or vmlinux of the user's: that file only */
	BtfLoadCache *c = cache(sc);
	for (int i = 1; i < c->nspaces; i++)
		if (!strcmp(c->spaces[i].module, module))
			return c->spaces[i].btf;
	if (c->nspaces == BTF_MAX_SPACES)
		return NULL;
	char dir[512], mpath[768];
	btf_dir(dir, sizeof(dir));
	snprintf(mpath, sizeof(mpath), "%s/%s", dir, module);
	struct btf *b = btf__parse_split(mpath, c->spaces[0].btf);
	if (!b)
		return NULL;
	c->spaces[c->nspaces++] = (BtfSpace){xstrdup(module), b};
	return b;
}

char **btf_module_names(SymCtx *sc, int *n)
{
	BtfLoadCache *c = cache(sc);
	if (c->modules_listed) {
		*n = c->nmodule_names;
		return c->module_names;
	}
	c->modules_listed = true;
	char **names = NULL;
	int count = 0;
	char dir[512];
	btf_dir(dir, sizeof(dir));
	DIR *d = !strcmp(btf_kernel_path(), BTF_VMLINUX) ? opendir(dir) : NULL;
	for (struct dirent *e; d && (e = readdir(d));) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "vmlinux"))
			continue;
		names = xrealloc(names, sizeof(*names) * (size_t)(count + 1));
		names[count++] = xstrdup(e->d_name);
	}
	if (d)
		closedir(d);
	if (count)
		qsort(names, (size_t)count, sizeof(*names), cmp_str);
	c->module_names = names;
	*n = c->nmodule_names = count;
	return names;
}

const char *btf_module_name(SymCtx *sc, const struct btf *b)
{
	int i = btf_space_index(sc, b);
	return i > 0 ? cache(sc)->spaces[i].module : "vmlinux";
}

const char *btf_error(SymCtx *sc)
{
	const char *why = cache(sc)->why;
	return why[0] ? why : NULL;
}
