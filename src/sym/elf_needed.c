/* DT_NEEDED entries of an ELF file, read through libelf. */
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../util/util.h"
#include "elf_needed.h"
#include "elf_syms.h"

typedef VEC(char *) Names;

/* The DT_NEEDED names of the file at path (empty when unreadable). */
static void read_needed(const char *path, Names *out)
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
			if (gelf_getdyn(d, (int)i, &dyn) && dyn.d_tag == DT_NEEDED &&
			    (s = elf_strptr(e, sh.sh_link, dyn.d_un.d_val)))
				vec_push(out, xstrdup(s));
		}
	}
	if (e)
		elf_end(e);
	close(fd);
}

char *elf_needed_defining(const char *path, const char *name)
{
	Names libs = {0};
	char *found = NULL, msg[256];
	read_needed(path, &libs);
	for (int i = 0; i < libs.n; i++) {
		char *lib = found ? NULL : resolve_binary(libs.v[i], 0, msg, sizeof(msg));
		const ElfFile *f = lib ? elf_get(lib, msg, sizeof(msg)) : NULL;
		if (f && elf_sym_by_name(f, name))
			found = lib;
		else
			free(lib);
		free(libs.v[i]);
	}
	free(libs.v);
	return found;
}
