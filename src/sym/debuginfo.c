/* Finding and opening a binary's debug info (see debuginfo.h). */
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../util/util.h"
#include "debuginfo.h"
#include "symctx.h"

typedef struct Cached {
	DebugInfo di;
	int dwfd; /* a separate debug file's, open with di.dw; -1: none */
	struct Cached *next;
} Cached;

/* the handles opened, in the run's SymCtx */
typedef struct DebugInfoCache {
	Cached *list;
} DebugInfoCache;

static void debuginfo_free(void *cache)
{
	DebugInfoCache *dc = cache;
	for (Cached *c = dc->list, *next; c; c = next) {
		next = c->next;
		if (c->di.dw)
			dwarf_end(c->di.dw);
		if (c->di.elf)
			elf_end(c->di.elf);
		if (c->di.fd >= 0)
			close(c->di.fd);
		if (c->dwfd >= 0)
			close(c->dwfd);
		free(c->di.path);
		free(c->di.dwpath);
		free(c);
	}
	free(dc);
}

/* a separate debug file; NULL unless it opens and holds .debug_info (its
 * fd in *dwfd, open as long as the Dwarf) */
static Dwarf *try_dwarf(const char *path, int *dwfd)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
	if (!dw)
		close(fd);
	else
		*dwfd = fd;
	return dw;
}

static Dwarf *by_build_id(Elf *elf, char **from, int *dwfd)
{
	const void *id;
	ssize_t n = dwelf_elf_gnu_build_id(elf, &id);
	if (n <= 1)
		return NULL;
	const unsigned char *b = id;
	StrBuf p = {0};
	sb_printf(&p, "/usr/lib/debug/.build-id/%02x/", b[0]);
	for (ssize_t i = 1; i < n; i++)
		sb_printf(&p, "%02x", b[i]);
	sb_puts(&p, ".debug");
	Dwarf *dw = try_dwarf(p.s, dwfd);
	if (dw)
		*from = p.s;
	else
		free(p.s);
	return dw;
}

/* .gnu_debuglink: DIR/NAME, DIR/.debug/NAME, /usr/lib/debug/DIR/NAME */
static Dwarf *by_debuglink(Elf *elf, const char *path, char **from, int *dwfd)
{
	GElf_Word crc;
	const char *name = dwelf_elf_gnu_debuglink(elf, &crc);
	if (!name)
		return NULL;
	char *copy = xstrdup(path);
	const char *dir = dirname(copy);
	const char *fmts[] = {"%s/%s", "%s/.debug/%s", "/usr/lib/debug%s/%s"};
	Dwarf *dw = NULL;
	for (size_t i = 0; i < 3 && !dw; i++) {
		StrBuf p = {0};
		sb_printf(&p, fmts[i], dir, name);
		if (strcmp(p.s, path) && (dw = try_dwarf(p.s, dwfd)))
			*from = p.s;
		else
			free(p.s);
	}
	free(copy);
	return dw;
}

static void open_info(DebugInfo *di, int *dwfd)
{
	di->fd = open(di->path, O_RDONLY | O_CLOEXEC);
	if (di->fd < 0)
		return;
	di->opened = true;
	elf_version(EV_CURRENT);
	di->elf = elf_begin(di->fd, ELF_C_READ_MMAP, NULL);
	if (!di->elf)
		return;
	char *from = NULL;
	di->dw = by_build_id(di->elf, &from, dwfd);
	if (!di->dw) {
		StrBuf p = {0};
		sb_printf(&p, "/usr/lib/debug%s.debug", di->path);
		if ((di->dw = try_dwarf(p.s, dwfd)))
			from = p.s;
		else
			free(p.s);
	}
	if (!di->dw && (di->dw = dwarf_begin_elf(di->elf, DWARF_C_READ, NULL)))
		from = xstrdup(di->path);
	if (!di->dw)
		di->dw = by_debuglink(di->elf, di->path, &from, dwfd);
	di->dwpath = from;
}

DebugInfo *debuginfo_get(SymCtx *sc, const char *path)
{
	DebugInfoCache *cache = SYM_CACHE(sc, debuginfo, debuginfo_free);
	for (Cached *c = cache->list; c; c = c->next)
		if (!strcmp(c->di.path, path))
			return &c->di;
	Cached *c = xcalloc(1, sizeof(*c));
	c->di.path = xstrdup(path);
	c->di.fd = c->dwfd = -1;
	open_info(&c->di, &c->dwfd);
	c->next = cache->list;
	cache->list = c;
	return &c->di;
}

/* The PT_LOAD segment holding `a`: a virtual address, or a file offset
 * when `is_offset` (the two conversions below differ only in that). */
static bool load_segment(DebugInfo *di, Dwarf_Addr a, bool is_offset, GElf_Phdr *ph)
{
	size_t n;
	if (!di->elf || elf_getphdrnum(di->elf, &n) != 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!gelf_getphdr(di->elf, (int)i, ph) || ph->p_type != PT_LOAD)
			continue;
		Dwarf_Addr start = is_offset ? ph->p_offset : ph->p_vaddr;
		Dwarf_Addr size = is_offset ? ph->p_filesz : ph->p_memsz;
		if (a >= start && a < start + size)
			return true;
	}
	return false;
}

bool debuginfo_vaddr_to_offset(DebugInfo *di, Dwarf_Addr vaddr, Dwarf_Addr *off)
{
	GElf_Phdr ph;
	if (!load_segment(di, vaddr, false, &ph))
		return false;
	*off = vaddr - ph.p_vaddr + ph.p_offset;
	return true;
}

/* perf takes .eh_frame of the file the DWARF is in (a separate debug file
 * has none: then only .debug_frame, and variables relative to the frame
 * base are not available) */
Dwarf_CFI *debuginfo_cfi(DebugInfo *di, bool *owned)
{
	*owned = false;
	Elf *elf = dwarf_getelf(di->dw);
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	if (elf && elf_getshdrstrndx(elf, &shstrndx) == 0)
		while ((scn = elf_nextscn(elf, scn))) {
			const char *n;
			if (gelf_getshdr(scn, &sh) && (n = elf_strptr(elf, shstrndx, sh.sh_name)) &&
			    !strcmp(n, ".eh_frame"))
				break;
		}
	if (scn && sh.sh_type == SHT_PROGBITS) {
		*owned = true; /* dwarf_getcfi_elf's is ours to end; dwarf_getcfi's is the Dwarf's */
		return dwarf_getcfi_elf(elf);
	}
	return dwarf_getcfi(di->dw);
}

bool debuginfo_offset_to_vaddr(DebugInfo *di, Dwarf_Addr off, Dwarf_Addr *vaddr)
{
	GElf_Phdr ph;
	if (!load_segment(di, off, true, &ph))
		return false;
	*vaddr = off - ph.p_offset + ph.p_vaddr;
	return true;
}
