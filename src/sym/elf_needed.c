/* DT_NEEDED entries of an ELF file, read through libelf. */
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../util/util.h"
#include "elf_needed.h"
#include "elf_syms.h"

typedef VEC(char *) Names;

/* The DT_NEEDED names of the file at path (empty when unreadable); with
 * runpath, its DT_RUNPATH (else DT_RPATH) too, or NULL. */
static void read_dynamic(const char *path, Names *out, char **runpath)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	for (Elf_Scn *scn = NULL; e && (scn = elf_nextscn(e, scn));) {
		GElf_Shdr sh;
		Elf_Data *d;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC || !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Dyn dyn;
			const char *s;
			if (!gelf_getdyn(d, (int)i, &dyn) ||
			    !(s = elf_strptr(e, sh.sh_link, dyn.d_un.d_val)))
				continue;
			if (dyn.d_tag == DT_NEEDED)
				vec_push(out, xstrdup(s));
			else if (runpath && (dyn.d_tag == DT_RUNPATH || (dyn.d_tag == DT_RPATH && !*runpath))) {
				free(*runpath);
				*runpath = xstrdup(s);
			}
		}
	}
	if (e)
		elf_end(e);
	close(fd);
}

char *elf_needed_defining(SymCtx *sc, const char *path, const char *name)
{
	Names libs = {0};
	char *found = NULL, msg[256];
	read_dynamic(path, &libs, NULL);
	for (int i = 0; i < libs.n; i++) {
		char *lib = found ? NULL : resolve_binary(libs.v[i], 0, msg, sizeof(msg));
		const ElfFile *f = lib ? elf_get(sc, lib, msg, sizeof(msg)) : NULL;
		if (f && elf_sym_by_name(f, name))
			found = lib;
		else
			free(lib);
		free(libs.v[i]);
	}
	free(libs.v);
	return found;
}

/* lib in one of runpath's directories ($ORIGIN: path's own), else NULL */
static char *in_runpath(const char *path, const char *runpath, const char *lib)
{
	char *dirs = xstrdup(runpath), *save = NULL, *found = NULL;
	const char *slash = strrchr(path, '/');
	int olen = slash ? (int)(slash - path) : 1;
	for (char *d = strtok_r(dirs, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char cand[4096];
		if (!strncmp(d, "$ORIGIN", 7))
			snprintf(cand, sizeof(cand), "%.*s%s/%s", olen, slash ? path : ".", d + 7, lib);
		else
			snprintf(cand, sizeof(cand), "%s/%s", d, lib);
		if (access(cand, R_OK) == 0)
			found = xstrdup(cand);
	}
	free(dirs);
	return found;
}

char *elf_needed_prefix(const char *path, const char *prefix)
{
	Names libs = {0};
	char *runpath = NULL, *found = NULL, msg[256];
	read_dynamic(path, &libs, &runpath);
	for (int i = 0; i < libs.n; i++) {
		if (!found && !strncmp(libs.v[i], prefix, strlen(prefix))) {
			found = runpath ? in_runpath(path, runpath, libs.v[i]) : NULL;
			if (!found)
				found = resolve_binary(libs.v[i], 0, msg, sizeof(msg));
		}
		free(libs.v[i]);
	}
	free(libs.v);
	free(runpath);
	return found;
}

/* lib as the file `from` needing it finds it: its runpath, else the
 * dynamic loader's cache and directories */
static char *resolve_needed(const char *from, const char *runpath, const char *lib)
{
	char msg[256], *p = runpath ? in_runpath(from, runpath, lib) : NULL;
	char *r = p ? realpath(p, NULL) : resolve_binary(lib, 0, msg, sizeof(msg));
	free(p);
	return r;
}

int elf_needed_all(const char *path, char ***out)
{
	VEC(char *) all = {0};
	vec_push(&all, xstrdup(path));
	for (int k = 0; k < all.n && all.n < 64; k++) { /* breadth first, each file once */
		Names libs = {0};
		char *runpath = NULL;
		read_dynamic(all.v[k], &libs, &runpath);
		for (int i = 0; i < libs.n; i++) {
			char *r = resolve_needed(all.v[k], runpath, libs.v[i]);
			for (int j = 0; r && j < all.n; j++)
				if (!strcmp(all.v[j], r)) {
					free(r);
					r = NULL;
				}
			if (r)
				vec_push(&all, r);
			free(libs.v[i]);
		}
		free(libs.v);
		free(runpath);
	}
	free(all.v[0]);
	for (int i = 1; i < all.n; i++)
		all.v[i - 1] = all.v[i];
	*out = all.v;
	return all.n - 1;
}
