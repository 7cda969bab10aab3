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

typedef struct BtfSpace {
	const char *module; /* NULL: vmlinux */
	struct btf *btf;
} BtfSpace;

static BtfSpace spaces[BTF_MAX_SPACES];
static int nspaces;
static bool tried;
static char why[256];

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

struct btf *btf_kernel(void)
{
	if (tried)
		return spaces[0].btf;
	tried = true;
	const char *path = btf_kernel_path();
	if (btf_env_file() && access(path, R_OK) != 0) {
		snprintf(why, sizeof(why), "cannot read BTF from BPFTRACE_BTF=%s: %s", path,
			 strerror(errno));
		return NULL;
	}
	if (access(path, R_OK) != 0) {
		snprintf(why, sizeof(why), "this kernel has no BTF (%s: %s): kernel struct types, "
			 "curtask->... and struct-pointer tracepoint args need it; integer casts, "
			 "C definitions written in the script and everything else still work",
			 path, strerror(errno));
		return NULL;
	}
	struct btf *b = btf__parse(path, NULL); /* raw BTF, or an ELF's .BTF section */
	if (!b) {
		snprintf(why, sizeof(why), "cannot read the kernel's BTF from %s: %s", path,
			 strerror(errno));
		return NULL;
	}
	spaces[0] = (BtfSpace){NULL, b};
	nspaces = 1;
	return b;
}

int btf_space_count(void)
{
	return nspaces;
}

struct btf *btf_space(int i)
{
	return i >= 0 && i < nspaces ? spaces[i].btf : NULL;
}

int btf_space_index(const struct btf *b)
{
	for (int i = 0; i < nspaces; i++)
		if (spaces[i].btf == b)
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

struct btf *btf_module(const char *module)
{
	if (!strcmp(module, "vmlinux"))
		return btf_kernel();
	if (!btf_kernel() || strchr(module, '/') || strcmp(btf_kernel_path(), BTF_VMLINUX))
		return NULL; /* a BTF file or vmlinux of the user's: that file only */
	for (int i = 1; i < nspaces; i++)
		if (!strcmp(spaces[i].module, module))
			return spaces[i].btf;
	if (nspaces == BTF_MAX_SPACES)
		return NULL;
	char dir[512], mpath[768];
	btf_dir(dir, sizeof(dir));
	snprintf(mpath, sizeof(mpath), "%s/%s", dir, module);
	struct btf *b = btf__parse_split(mpath, spaces[0].btf);
	if (!b)
		return NULL;
	spaces[nspaces++] = (BtfSpace){xstrdup(module), b};
	return b;
}

char **btf_module_names(int *n)
{
	static char **names;
	static int count = -1;
	if (count >= 0) {
		*n = count;
		return names;
	}
	count = 0;
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
	*n = count;
	return names;
}

const char *btf_module_name(const struct btf *b)
{
	int i = btf_space_index(b);
	return i > 0 ? spaces[i].module : "vmlinux";
}

const char *btf_error(void)
{
	return why[0] ? why : NULL;
}
