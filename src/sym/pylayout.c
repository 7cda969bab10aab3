/* CPython frame layouts: a built-in table per version, matched to the
 * binary by its Py_Version word and checked against what the binary itself
 * says (PyCode_Type's tp_basicsize is the offset of the bytecode in a code
 * object; _PyRuntime's size is the runtime structure's size).  A binary
 * that does not match is refused: a wrong offset prints a wrong stack. */
#include "pylayout.h"

#include <bpf/btf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "btf_load.h"
#include "elf_needed.h"
#include "elf_syms.h"
#include "kcache.h"
#include "../util/util.h"

/* PyTypeObject.tp_dealloc (after the object head, tp_name, tp_basicsize,
 * tp_itemsize): the same in every CPython 3 */
#define TP_DEALLOC 48

typedef struct PyVersionTable {
	unsigned major, minor;
	uint64_t runtime_size; /* sizeof(_PyRuntimeState) */
	int tp_basicsize;      /* PyCode_Type.tp_basicsize == co_code offset */
	PyLayout l;            /* offsets only */
} PyVersionTable;

/* Offsets read from CPython 3.11's headers (Include/cpython/pystate.h,
 * Include/internal/pycore_frame.h, Include/cpython/code.h, unicodeobject.h)
 * and measured on Debian's 3.11.2 and a 3.11.7 build. */
static const PyVersionTable versions[] = {
	{3, 11, 0x28b20, 184, {
		.tss_key = 596, .tls_block = 0x310,
		.ts_cframe = 56, .cf_frame = 8,
		.fr_code = 32, .fr_previous = 48, .fr_instr = 56,
		.co_type = 8, .co_firstlineno = 72, .co_filename = 112, .co_qualname = 128,
		.co_linetable = 136, .co_firsttraceable = 168, .co_code = 184, .co_head = 176,
		.str_state = 32, .str_ascii_data = 48, .str_utf8 = 56,
		.bytes_size = 16, .bytes_data = 32,
	}},
};

typedef struct ObjSyms {
	uint64_t runtime, runtime_size, code_type, version;
	uint64_t init; /* Py_InitializeFromConfig, a function */
} ObjSyms;

static void scan_symtab(Elf *e, Elf_Scn *scn, GElf_Shdr *sh, ObjSyms *o)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n = d && sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		if (!gelf_getsym(d, (int)i, &s) || s.st_shndx == SHN_UNDEF)
			continue;
		const char *name = elf_strptr(e, sh->sh_link, s.st_name);
		if (!name)
			continue;
		if (GELF_ST_TYPE(s.st_info) == STT_FUNC && !strcmp(name, "Py_InitializeFromConfig"))
			o->init = s.st_value;
		if (GELF_ST_TYPE(s.st_info) != STT_OBJECT)
			continue;
		if (!strcmp(name, "_PyRuntime")) {
			o->runtime = s.st_value;
			o->runtime_size = s.st_size;
		} else if (!strcmp(name, "PyCode_Type"))
			o->code_type = s.st_value;
		else if (!strcmp(name, "Py_Version"))
			o->version = s.st_value;
	}
}

static bool read_obj_syms(const char *path, ObjSyms *o)
{
	memset(o, 0, sizeof(*o));
	elf_version(EV_CURRENT);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	Elf_Scn *scn = NULL;
	while (e && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM))
			scan_symtab(e, scn, &sh, o);
	}
	if (e)
		elf_end(e);
	close(fd);
	return o->runtime && o->code_type && o->version;
}

bool py_has_runtime(const char *path)
{
	ObjSyms o;
	return read_obj_syms(path, &o);
}

/* n bytes of the file's initialized data at virtual address va */
static bool read_at_vaddr(SymCtx *sc, const char *path, uint64_t va, void *buf, size_t n)
{
	char err[128];
	const ElfFile *f = elf_get(sc, path, err, sizeof(err));
	uint64_t off = f ? elf_vaddr_to_offset(f, va) : (uint64_t)-1;
	if (off == (uint64_t)-1)
		return false;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool ok = fd >= 0 && pread(fd, buf, n, (off_t)off) == (ssize_t)n;
	if (fd >= 0)
		close(fd);
	return ok;
}

/* task_struct.thread.fsbase from the kernel's BTF, -1 if not found */
static int member_off(const struct btf *b, int id, const char *name, int *type_id)
{
	const struct btf_type *t = btf__type_by_id(b, (__u32)id);
	if (!t || !btf_is_struct(t))
		return -1;
	const struct btf_member *m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(b, m->name_off), name)) {
			*type_id = (int)m->type;
			return (int)(btf_member_bit_offset(t, (__u32)i) / 8);
		}
	return -1;
}

static int fsbase_from_btf(SymCtx *sc)
{
	struct btf *b = btf_kernel(sc);
	int task = b ? btf__find_by_name_kind(b, "task_struct", BTF_KIND_STRUCT) : -1, th, fs;
	if (task < 0)
		return -1;
	int a = member_off(b, task, "thread", &th);
	int c = a < 0 ? -1 : member_off(b, th, "fsbase", &fs);
	return c < 0 ? -1 : a + c;
}

static char *fsbase_text(void *arg, size_t *len)
{
	SymCtx *sc = arg;
	int off = fsbase_from_btf(sc);
	if (off < 0)
		return NULL;
	char buf[24];
	*len = (size_t)snprintf(buf, sizeof(buf), "%d\n", off);
	return xstrdup(buf);
}

/* The offset from the copy kept under /run/sonde for this boot: parsing
 * the kernel's BTF for it was two thirds of a pystack program's start-up
 * (~130 ms of CPU, 0.4 s and more of a loaded host's wall time), which a
 * short profile of a Python process spends unsampled */
int py_task_fsbase(SymCtx *sc)
{
	if (strcmp(btf_kernel_path(), BTF_VMLINUX))
		return fsbase_from_btf(sc); /* BPFTRACE_BTF's file: not the running kernel's */
	char *s = kcache_get("task_fsbase", fsbase_text, sc, NULL);
	int off = s && *s >= '0' && *s <= '9' ? atoi(s) : -1;
	free(s);
	return off;
}

/* PyCode_Type.tp_dealloc, where a uprobe sees each code object freed (the
 * cache must forget it: another may take its address).  The file holds the
 * pointer (a shared library's as its relocation's addend, which the linker
 * writes there too); it must fall in the file's code. */
static bool find_code_dealloc(SymCtx *sc, PyFile *pf, char *err, size_t errlen)
{
	uint64_t fn = 0;
	char e2[128];
	const ElfFile *f = elf_get(sc, pf->path, e2, sizeof(e2));
	if (f && read_at_vaddr(sc, pf->path, pf->code_type + TP_DEALLOC, &fn, 8) && fn)
		pf->code_dealloc = elf_vaddr_to_offset(f, fn);
	if (f && fn && pf->code_dealloc != (uint64_t)-1)
		return true;
	snprintf(err, errlen, "%s: cannot find PyCode_Type's tp_dealloc in the file: sonde "
		 "must see code objects freed to tell a new one at the same address from the old",
		 pf->path);
	return false;
}

/* the version's offsets into out (tss_key .. bytes_data, contiguous) */
static void set_offsets(PyLayout *out, const PyLayout *t)
{
	size_t from = offsetof(PyLayout, tss_key), to = offsetof(PyLayout, bytes_data) + sizeof(int);
	memcpy((char *)out + from, (const char *)t + from, to - from);
}

static bool check_version(SymCtx *sc, PyLayout *out, const PyFile *pf, const ObjSyms *o, char *err,
			  size_t errlen)
{
	uint32_t ver = 0;
	uint64_t basicsize = 0;
	if (!read_at_vaddr(sc, pf->path, o->version, &ver, 4) ||
	    !read_at_vaddr(sc, pf->path, o->code_type + 32, &basicsize, 8)) {
		snprintf(err, errlen, "%s: cannot read Py_Version and PyCode_Type from the file", pf->path);
		return false;
	}
	unsigned major = ver >> 24, minor = (ver >> 16) & 0xff;
	char vs[sizeof(out->version)];
	snprintf(vs, sizeof(vs), "%u.%u.%u", major, minor, (ver >> 8) & 0xff);
	const PyVersionTable *v = NULL;
	for (size_t i = 0; i < sizeof(versions) / sizeof(versions[0]); i++)
		if (versions[i].major == major && versions[i].minor == minor)
			v = &versions[i];
	if (!v) {
		snprintf(err, errlen, "%s is CPython %s: sonde reads the frames of CPython 3.11 only",
			 pf->path, vs);
		return false;
	}
	if ((int)basicsize != v->tp_basicsize || o->runtime_size != v->runtime_size) {
		snprintf(err, errlen, "%s (CPython %s) does not match sonde's 3.11 layout "
			 "(code objects %llu bytes, expected %d; _PyRuntime %llu bytes, expected "
			 "%llu): refusing to print wrong stacks", pf->path, vs,
			 (unsigned long long)basicsize, v->tp_basicsize,
			 (unsigned long long)o->runtime_size, (unsigned long long)v->runtime_size);
		return false;
	}
	set_offsets(out, &v->l);
	memcpy(out->version, vs, sizeof(vs));
	return true;
}

bool pyfile_check(SymCtx *sc, const char *path, PyLayout *out, PyFile *pf, bool *dyn, char *err,
		  size_t errlen)
{
	ObjSyms o;
	char e2[128];
	memset(pf, 0, sizeof(*pf));
	if (strlen(path) >= sizeof(pf->path) || !read_obj_syms(path, &o)) {
		snprintf(err, errlen, "%s has no _PyRuntime, PyCode_Type and Py_Version symbols: "
			 "not a CPython sonde can read (give -p PID of a python process)", path);
		return false;
	}
	strcpy(pf->path, path);
	pf->runtime = o.runtime;
	pf->code_type = o.code_type;
	const ElfFile *f = elf_get(sc, path, e2, sizeof(e2));
	*dyn = f && f->dyn;
	pf->init_vaddr = o.init;
	pf->init_off = f && o.init ? elf_vaddr_to_offset(f, o.init) : (uint64_t)-1;
	return check_version(sc, out, pf, &o, err, errlen) && find_code_dealloc(sc, pf, err, errlen);
}

static uint64_t elf_entry(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *e = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	GElf_Ehdr eh;
	uint64_t entry = e && gelf_getehdr(e, &eh) && eh.e_type == ET_EXEC ? eh.e_entry : 0;
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
	return entry;
}

bool py311_line_semaphore(SymCtx *sc, const char *path, uint64_t *entry_off, uint64_t *sema_off)
{
	ObjSyms o;
	uint32_t ver = 0;
	char err[128];
	const ElfFile *f = elf_get(sc, path, err, sizeof(err));
	if (!f || !read_obj_syms(path, &o) || !read_at_vaddr(sc, path, o.version, &ver, 4) ||
	    ver >> 16 != 0x030b)
		return false;
	uint64_t entry = elf_entry(path);
	*entry_off = entry ? elf_vaddr_to_offset(f, entry) : (uint64_t)-1;
	for (int i = 0; i < f->nnotes; i++)
		if (!strcmp(f->notes[i].provider, "python") && !strcmp(f->notes[i].name, "line") &&
		    f->notes[i].sema) {
			*sema_off = elf_vaddr_to_offset(f, f->notes[i].sema);
			return *entry_off != (uint64_t)-1 && *sema_off != (uint64_t)-1;
		}
	return false;
}

static uint32_t varint(const uint8_t *p, size_t n, size_t *i)
{
	uint32_t v = 0;
	for (int shift = 0; *i < n; shift += 6) {
		uint8_t b = p[(*i)++];
		v |= (uint32_t)(b & 63) << shift;
		if (!(b & 64) || shift > 24)
			break;
	}
	return v;
}

/* The 3.11 location table (Objects/locations.md): entries start with a
 * byte whose bit 7 is set; bits 3-6 are the kind, bits 0-2 the length in
 * code units minus one.  Kinds 13 and 14 start with a signed varint line
 * delta, 10-12 move 0-2 lines, 15 means no line, 0-9 stay on the line. */
int py_linetable_line(const uint8_t *lt, size_t n, int firstlineno, int64_t lasti)
{
	int line = firstlineno;
	int64_t end = 0;
	size_t i = 0;
	if (lasti < 0)
		return firstlineno;
	while (i < n) {
		uint8_t b = lt[i];
		int kind = (b >> 3) & 15, delta = 0;
		size_t j = i + 1;
		if (kind == 13 || kind == 14) {
			uint32_t u = varint(lt, n, &j);
			delta = u & 1 ? -(int)(u >> 1) : (int)(u >> 1);
		} else if (kind >= 10 && kind <= 12)
			delta = kind - 10;
		line += delta;
		end += (b & 7) + 1;
		if (lasti < end)
			return kind == 15 ? -1 : line;
		for (i++; i < n && !(lt[i] & 128); i++)
			;
	}
	return -1;
}
