/* ELF symbols, segments and USDT notes through libelf; library names as
 * the dynamic loader finds them; process maps kept for symbolization. */
#include "elf_syms.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "debuginfo.h"
#include "../util/clock.h"
#include "../util/util.h"
#include "symctx.h"

/* ---- ELF files ---------------------------------------------------------- */

typedef struct PidMaps PidMaps;
/* what was read, in the run's SymCtx */
typedef struct ElfSymsCache {
	VEC(ElfFile *) files; /* elf_get()'s */
	VEC(PidMaps) pids;    /* usym_note_pid()'s */
} ElfSymsCache;
typedef VEC(ElfSym) SymVec;
typedef VEC(UsdtNote) NoteVec;

static void elf_file_free(ElfFile *f)
{
	for (int i = 0; i < f->nsyms; i++)
		free(f->syms[i].name);
	for (int i = 0; i < f->nobjs; i++)
		free(f->objs[i].name);
	for (int i = 0; i < f->nnotes; i++) {
		free(f->notes[i].provider);
		free(f->notes[i].name);
		free(f->notes[i].args);
	}
	free(f->syms);
	free(f->objs);
	free(f->notes);
	free(f->segs);
	free(f->path);
	free(f);
}

static void elf_syms_free(void *cache); /* after PidMaps */

static int cmp_sym(const void *a, const void *b)
{
	const ElfSym *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* same address: the sized, global-looking name first */
	if ((x->size == 0) != (y->size == 0))
		return x->size ? -1 : 1;
	return (x->name[0] == '_') - (y->name[0] == '_');
}

/* Symbols of one type (STT_FUNC, STT_OBJECT) from a symbol table. */
static void read_symtab(Elf *e, Elf_Scn *scn, GElf_Shdr *sh, int type, SymVec *out)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d || !sh->sh_entsize)
		return;
	size_t n = sh->sh_size / sh->sh_entsize;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != type ||
		    s.st_shndx == SHN_UNDEF || !s.st_value)
			continue;
		const char *name = elf_strptr(e, sh->sh_link, s.st_name);
		if (!name || !*name)
			continue;
		ElfSym sym = {xstrdup(name), s.st_value, s.st_size};
		/* "memcpy@@GLIBC_2.14" in .symtab: keep the plain name */
		char *at = strchr(sym.name, '@');
		if (at)
			*at = 0;
		vec_push(out, sym);
	}
}

/* stapsdt note: pc, base, semaphore (3 x 8 bytes), then provider, name and
 * argument strings. */
static void read_notes(Elf *e, Elf_Scn *scn, uint64_t sdt_base, NoteVec *out)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;
	while (d && (off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
		const char *owner = (const char *)d->d_buf + name_off;
		if (nh.n_type != 3 || nh.n_namesz != 8 || memcmp(owner, "stapsdt", 8) ||
		    nh.n_descsz < 24 + 3)
			continue;
		const char *desc = (const char *)d->d_buf + desc_off, *end = desc + nh.n_descsz;
		uint64_t v[3];
		memcpy(v, desc, 24);
		const char *prov = desc + 24;
		const char *name = prov + strnlen(prov, (size_t)(end - prov)) + 1;
		if (name >= end)
			continue;
		const char *args = name + strnlen(name, (size_t)(end - name)) + 1;
		UsdtNote n = {xstrdup(prov), xstrdup(name), xstrdup(args < end ? args : ""),
			      v[0], v[2]};
		if (sdt_base && v[1])
			n.pc += sdt_base - v[1]; /* prelinked: the base moved */
		vec_push(out, n);
	}
	(void)e;
}

/* The .symtab of the binary's separate debug file (by build id or
 * .gnu_debuglink, as bcc's symbolizer finds it for bpftrace): a stripped
 * library's static functions (libc's __libc_start_call_main) then have
 * names.  The debug file keeps the binary's addresses. */
static void read_debug_symtab(SymCtx *sc, const char *path, SymVec *syms, SymVec *objs)
{
	DebugInfo *di = debuginfo_get(sc, path);
	if (!di->dw || !di->dwpath || !strcmp(di->dwpath, path))
		return;
	Elf *e = dwarf_getelf(di->dw);
	for (Elf_Scn *scn = NULL; e && (scn = elf_nextscn(e, scn));) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB) {
			read_symtab(e, scn, &sh, STT_FUNC, syms);
			read_symtab(e, scn, &sh, STT_OBJECT, objs);
		}
	}
}

/* A function both in .dynsym and in the debug file's .symtab (libc's
 * malloc with libc6-dbg installed) is one function: its second name at
 * the same address goes (D's -l listed pid$target::malloc:entry twice).
 * syms is sorted by address; returns the count kept. */
static int drop_repeats(ElfSym *syms, int n)
{
	int k = 0;
	for (int i = 0; i < n; i++) {
		bool seen = false;
		for (int j = k - 1; j >= 0 && syms[j].addr == syms[i].addr && !seen; j--)
			seen = !strcmp(syms[j].name, syms[i].name);
		if (seen)
			free(syms[i].name);
		else
			syms[k++] = syms[i];
	}
	return k;
}

static ElfFile *elf_load(SymCtx *sc, const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	GElf_Ehdr eh;
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh)) {
		snprintf(err, errlen, "%s is not an ELF file", path);
		if (e)
			elf_end(e);
		close(fd);
		return NULL;
	}
	ElfFile *f = xcalloc(1, sizeof(*f));
	f->path = xstrdup(path);
	f->dyn = eh.e_type == ET_DYN;
	size_t nph = 0;
	elf_getphdrnum(e, &nph);
	f->segs = xcalloc(nph + 1, sizeof(ElfSeg));
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD)
			f->segs[f->nsegs++] = (ElfSeg){ph.p_vaddr, ph.p_memsz, ph.p_offset,
						       ph.p_filesz, (ph.p_flags & PF_X) != 0};
	}
	size_t shstrndx = 0;
	elf_getshdrstrndx(e, &shstrndx);
	SymVec syms = {0}, objs = {0};
	NoteVec notes = {0};
	uint64_t sdt_base = 0;
	Elf_Scn *note_scn = NULL;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *name = elf_strptr(e, shstrndx, sh.sh_name);
		if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM) {
			read_symtab(e, scn, &sh, STT_FUNC, &syms);
			read_symtab(e, scn, &sh, STT_OBJECT, &objs);
		}
		else if (name && !strcmp(name, ".stapsdt.base"))
			sdt_base = sh.sh_addr;
		else if (name && sh.sh_type == SHT_NOTE && !strcmp(name, ".note.stapsdt"))
			note_scn = scn;
	}
	if (note_scn)
		read_notes(e, note_scn, sdt_base, &notes);
	read_debug_symtab(sc, path, &syms, &objs);
	if (syms.n)
		qsort(syms.v, (size_t)syms.n, sizeof(ElfSym), cmp_sym);
	syms.n = drop_repeats(syms.v, syms.n);
	/* aliases stay (lookups by name); by address the first of equal
	 * addresses is the preferred name */
	f->syms = syms.v;
	f->nsyms = syms.n;
	f->objs = objs.v;
	f->nobjs = objs.n;
	f->notes = notes.v;
	f->nnotes = notes.n;
	elf_end(e);
	close(fd);
	return f;
}

const ElfFile *elf_get(SymCtx *sc, const char *path, char *err, size_t errlen)
{
	ElfSymsCache *c = SYM_CACHE(sc, elf_syms, elf_syms_free);
	for (int i = 0; i < c->files.n; i++)
		if (!strcmp(c->files.v[i]->path, path))
			return c->files.v[i];
	ElfFile *f = elf_load(sc, path, err, errlen);
	if (f)
		vec_push(&c->files, f);
	return f;
}

uint64_t elf_vaddr_to_offset(const ElfFile *f, uint64_t vaddr)
{
	for (int i = 0; i < f->nsegs; i++) {
		const ElfSeg *s = &f->segs[i];
		if (vaddr >= s->vaddr && vaddr < s->vaddr + s->memsz)
			return vaddr - s->vaddr + s->offset;
	}
	return (uint64_t)-1;
}

uint64_t elf_offset_to_vaddr(const ElfFile *f, uint64_t off)
{
	for (int i = 0; i < f->nsegs; i++) {
		const ElfSeg *s = &f->segs[i];
		if (off >= s->offset && off < s->offset + (s->filesz ? s->filesz : s->memsz))
			return off - s->offset + s->vaddr;
	}
	return (uint64_t)-1;
}

const ElfSym *elf_sym_by_name(const ElfFile *f, const char *name)
{
	for (int i = 0; i < f->nsyms; i++)
		if (!strcmp(f->syms[i].name, name))
			return &f->syms[i];
	return NULL;
}

const ElfSym *elf_sym_by_addr(const ElfFile *f, uint64_t vaddr, uint64_t *off)
{
	int lo = 0, hi = f->nsyms - 1, best = -1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (f->syms[mid].addr <= vaddr) {
			best = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	if (best < 0)
		return NULL;
	while (best > 0 && f->syms[best - 1].addr == f->syms[best].addr)
		best--;
	const ElfSym *s = &f->syms[best];
	uint64_t d = vaddr - s->addr;
	if (d >= s->size && !(s->size == 0 && d < 4096))
		return NULL;
	*off = d;
	return s;
}

/* ---- library names -------------------------------------------------------- */

/* "libc" matches libc.so, libc.so.6, libc-2.36.so; "libc.so.6" itself. */
bool lib_name_matches(const char *want, const char *file)
{
	size_t n = strlen(want);
	if (strncmp(file, want, n))
		return false;
	const char *r = file + n;
	return !*r || !strncmp(r, ".so", 3) || (*r == '-' && strstr(r, ".so"));
}

static char *lib_from_maps(const char *want, int pid)
{
	char path[64], line[4096];
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	FILE *f = fopen(path, "re");
	char *found = NULL;
	while (f && !found && fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '/');
		if (!p)
			continue;
		p[strcspn(p, "\n")] = 0;
		if (lib_name_matches(want, path_basename(p)))
			found = xstrdup(p);
	}
	if (f)
		fclose(f);
	return found;
}

/* /etc/ld.so.cache, new format ("glibc-ld.so.cache1.1"): a header, then
 * entries {int32 flags; uint32 key, value; uint32 osversion; uint64 hwcap}
 * whose key/value are offsets from the start of the new-format header. */
static char *lib_from_cache(const char *want)
{
	size_t len;
	char *buf = read_file_all("/etc/ld.so.cache", &len);
	if (!buf)
		return NULL;
	static const char magic[] = "glibc-ld.so.cache1.1";
	char *hdr = memmem(buf, len, magic, sizeof(magic) - 1);
	char *found = NULL;
	if (hdr && (size_t)(hdr - buf) + 48 <= len) {
		uint32_t nlibs;
		memcpy(&nlibs, hdr + 20, 4);
		const char *ent = hdr + 48;
		for (uint32_t i = 0; i < nlibs && !found; i++, ent += 24) {
			if ((size_t)(ent - buf) + 24 > len)
				break;
			int32_t flags;
			uint32_t k, v;
			memcpy(&flags, ent, 4);
			memcpy(&k, ent + 4, 4);
			memcpy(&v, ent + 8, 4);
			/* x86-64 libc6 entries: type 0x0303 */
			if ((flags & 0xff00) != 0x0300 || (size_t)(hdr - buf) + k >= len ||
			    (size_t)(hdr - buf) + v >= len)
				continue;
			if (lib_name_matches(want, hdr + k))
				found = xstrdup(hdr + v);
		}
	}
	free(buf);
	return found;
}

static char *lib_from_dirs(const char *want)
{
	static const char *const dirs[] = {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
					   "/lib64", "/usr/lib", "/lib"};
	char *found = NULL;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && !found; i++) {
		char p[PATH_MAX];
		/* the usual names first, then any libX.so.N */
		static const char *const sfx[] = {"", ".so", ".so.6", ".so.3", ".so.1", ".so.0"};
		for (size_t j = 0; j < sizeof(sfx) / sizeof(sfx[0]) && !found; j++) {
			snprintf(p, sizeof(p), "%s/%s%s", dirs[i], want, sfx[j]);
			struct stat st;
			if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
				found = xstrdup(p);
		}
	}
	return found;
}

static char *prog_from_path(const char *name)
{
	const char *path = getenv("PATH");
	char *dirs = xstrdup(path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
	char *found = NULL;
	for (char *d = strtok(dirs, ":"); d && !found; d = strtok(NULL, ":")) {
		char full[PATH_MAX];
		snprintf(full, sizeof(full), "%s/%s", d, name);
		if (access(full, X_OK) == 0)
			found = xstrdup(full);
	}
	free(dirs);
	return found;
}

char *resolve_binary(const char *target, int pid, char *err, size_t errlen)
{
	if (strchr(target, '/')) {
		if (access(target, F_OK) != 0) {
			snprintf(err, errlen, "%s: no such file", target);
			return NULL;
		}
		return xstrdup(target); /* as given: `probe` shows it so */
	}
	char *p = NULL;
	if (pid > 0)
		p = lib_from_maps(target, pid);
	if (!p && !strncmp(target, "lib", 3))
		p = lib_from_cache(target);
	if (!p && !strncmp(target, "lib", 3))
		p = lib_from_dirs(target);
	if (!p)
		p = prog_from_path(target);
	if (!p) {
		snprintf(err, errlen, "'%s' is not a path, a library the dynamic loader knows "
			 "(ld.so.cache, /lib, /usr/lib) or a program in $PATH", target);
		return NULL;
	}
	char *r = realpath(p, NULL);
	free(p);
	return r ? r : NULL;
}

int proc_binaries(int pid, char ***out)
{
	char path[64], line[4096];
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	FILE *f = fopen(path, "re");
	VEC(char *) v = {0};
	while (f && fgets(line, sizeof(line), f)) {
		char perms[8] = "", range[64] = "", mf[128];
		char *p = strchr(line, '/');
		if (!p || sscanf(line, "%63[0-9a-f-] %7s", range, perms) != 2 || perms[2] != 'x')
			continue;
		p[strcspn(p, "\n")] = 0;
		/* a file that exists on no disk (a memfd, a deleted file: probes a
		 * program built at run time) is reached through the mapping */
		if (!strncmp(p, "/memfd:", 7) || strstr(p, " (deleted)")) {
			snprintf(mf, sizeof(mf), "/proc/%d/map_files/%s", pid, range);
			p = mf;
		}
		bool dup = false;
		for (int i = 0; i < v.n && !dup; i++)
			dup = !strcmp(v.v[i], p);
		if (!dup)
			vec_push(&v, xstrdup(p));
	}
	if (f)
		fclose(f);
	*out = v.v;
	return v.n;
}

/* ---- process maps, kept ------------------------------------------------- */

typedef struct PMap {
	uint64_t start, end, off;
	char *path;
} PMap;

typedef struct PidMaps {
	int pid;
	PMap *v;
	int n;
	uint64_t read_ns; /* when the maps were read (CLOCK_MONOTONIC) */
} PidMaps;

static void pid_maps_free(PidMaps *pm)
{
	for (int i = 0; i < pm->n; i++)
		free(pm->v[i].path);
	free(pm->v);
}

static void elf_syms_free(void *cache)
{
	ElfSymsCache *c = cache;
	for (int i = 0; i < c->files.n; i++)
		elf_file_free(c->files.v[i]);
	vec_free(&c->files);
	for (int i = 0; i < c->pids.n; i++)
		pid_maps_free(&c->pids.v[i]);
	vec_free(&c->pids);
	free(c);
}


static PidMaps *pid_find(SymCtx *sc, int pid)
{
	ElfSymsCache *c = SYM_CACHE(sc, elf_syms, elf_syms_free);
	for (int i = 0; i < c->pids.n; i++)
		if (c->pids.v[i].pid == pid)
			return &c->pids.v[i];
	return NULL;
}

/* A mapped file as sonde can open it: a process in another mount namespace
 * (a container) maps files sonde sees only under /proc/PID/root; those are
 * opened now, while the process lives, so that its addresses still resolve
 * when the maps print after it has exited. */
static char *pid_visible_path(SymCtx *sc, int pid, const char *path)
{
	char alt[PATH_MAX], err[256];
	if (access(path, F_OK) == 0 || strncmp(path, "/", 1))
		return xstrdup(path);
	snprintf(alt, sizeof(alt), "/proc/%d/root%s", pid, path);
	if (access(alt, F_OK) != 0)
		return xstrdup(path);
	elf_get(sc, alt, err, sizeof(err));
	return xstrdup(alt);
}

void usym_note_pid(SymCtx *sc, int pid, bool refresh)
{
	PidMaps *pm = pid_find(sc, pid);
	if (pm && !refresh)
		return;
	char path[64], line[4096];
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	VEC(PMap) v = {0};
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, o;
		char perms[8];
		char *p = strchr(line, '/');
		if (!p || sscanf(line, "%llx-%llx %7s %llx", &s, &e, perms, &o) != 4 || perms[2] != 'x')
			continue;
		p[strcspn(p, "\n")] = 0;
		PMap m = {s, e, o, pid_visible_path(sc, pid, p)};
		vec_push(&v, m);
	}
	fclose(f);
	if (!v.n && pm) {
		pm->read_ns = mono_ns();
		return; /* the process is exiting: keep what we had */
	}
	if (!pm) {
		PidMaps z = {pid, NULL, 0};
		ElfSymsCache *c = SYM_CACHE(sc, elf_syms, elf_syms_free);
		vec_push(&c->pids, z);
		pm = &c->pids.v[c->pids.n - 1];
	} else {
		pid_maps_free(pm);
	}
	pm->v = v.v;
	pm->n = v.n;
	pm->read_ns = mono_ns();
}

static const PMap *pid_mapping(const PidMaps *pm, uint64_t addr)
{
	for (int i = 0; pm && i < pm->n; i++)
		if (addr >= pm->v[i].start && addr < pm->v[i].end)
			return &pm->v[i];
	return NULL;
}

const char *usym_resolve(SymCtx *sc, int pid, uint64_t addr, uint64_t *off, const char **module)
{
	usym_note_pid(sc, pid, false);
	PidMaps *pm = pid_find(sc, pid);
	const PMap *m = pid_mapping(pm, addr);
	/* an address outside every mapping we know: the process may have
	 * mapped it since the maps were read (a library loaded as the event
	 * loop read them); read them again, at most once per millisecond */
	if (!m && pm && mono_ns() - pm->read_ns > 1000000) {
		usym_note_pid(sc, pid, true);
		m = pid_mapping(pm = pid_find(sc, pid), addr);
	}
	if (!m)
		return NULL;
	char err[256];
	const ElfFile *f = elf_get(sc, m->path, err, sizeof(err));
	if (module)
		*module = m->path;
	if (!f)
		return NULL;
	uint64_t v = elf_offset_to_vaddr(f, addr - m->start + m->off);
	const ElfSym *s = v == (uint64_t)-1 ? NULL : elf_sym_by_addr(f, v, off);
	return s ? s->name : NULL;
}

const ElfSym *usym_lookup(SymCtx *sc, const char *path, const char *name)
{
	char err[256];
	const ElfFile *f = elf_get(sc, path, err, sizeof(err));
	if (!f)
		return NULL;
	const ElfSym *s = elf_sym_by_name(f, name);
	for (int i = 0; !s && i < f->nobjs; i++)
		if (!strcmp(f->objs[i].name, name))
			s = &f->objs[i];
	return s;
}

uint64_t usym_addr(SymCtx *sc, const char *path, const char *name)
{
	const ElfSym *s = usym_lookup(sc, path, name);
	return s ? s->addr : 0;
}

int usym_code_before(SymCtx *sc, int pid, uint64_t addr, uint8_t *buf, size_t n)
{
	usym_note_pid(sc, pid, false);
	const PMap *m = pid_mapping(pid_find(sc, pid), addr - 1);
	if (!m || !m->path || m->path[0] != '/')
		return -1;
	if (addr - m->start < n) /* not before the mapping's start */
		n = (size_t)(addr - m->start);
	int fd = open(m->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t got = pread(fd, buf, n, (off_t)(addr - n - m->start + m->off));
	close(fd);
	return got == (ssize_t)n ? (int)n : -1;
}
