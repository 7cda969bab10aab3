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
static int fsbase_offset(SymCtx *sc)
{
	if (strcmp(btf_kernel_path(), BTF_VMLINUX))
		return fsbase_from_btf(sc); /* BPFTRACE_BTF's file: not the running kernel's */
	char *s = kcache_get("task_fsbase", fsbase_text, sc, NULL);
	int off = s && *s >= '0' && *s <= '9' ? atoi(s) : -1;
	free(s);
	return off;
}

/* Load bias of path in process pid (0 for a fixed-address executable). */
static bool load_bias(SymCtx *sc, int pid, const char *path, bool dyn, uint64_t *bias)
{
	*bias = 0;
	if (!dyn)
		return true;
	if (pid <= 0)
		return false;
	char mp[64], line[4096 + 128];
	snprintf(mp, sizeof(mp), "/proc/%d/maps", pid);
	FILE *f = fopen(mp, "r");
	bool found = false;
	char err[128];
	const ElfFile *ef = elf_get(sc, path, err, sizeof(err));
	while (f && ef && !found && fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi, off;
		char file[4096] = "";
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %4095s", &lo, &hi, &off, file) < 4 ||
		    strcmp(file, path))
			continue;
		uint64_t va = elf_offset_to_vaddr(ef, off);
		if (va != (uint64_t)-1) {
			*bias = lo - va;
			found = true;
		}
	}
	if (f)
		fclose(f);
	return found;
}

/* The file holding _PyRuntime for pid: its executable, or a libpython it maps. */
static bool python_of_pid(int pid, char *path, size_t n)
{
	char link[64];
	snprintf(link, sizeof(link), "/proc/%d/exe", pid);
	ssize_t k = readlink(link, path, n - 1);
	ObjSyms o;
	if (k > 0) {
		path[k] = 0;
		if (read_obj_syms(path, &o))
			return true;
	}
	char **paths = NULL;
	int np = proc_binaries(pid, &paths);
	bool ok = false;
	for (int i = 0; i < np; i++) {
		if (!ok && strstr(paths[i], "/libpython3") && strlen(paths[i]) < n &&
		    read_obj_syms(paths[i], &o)) {
			strcpy(path, paths[i]);
			ok = true;
		}
		free(paths[i]);
	}
	free(paths);
	return ok;
}

/* The -c command's CPython: its executable, or the libpython3 it links;
 * a command not named python* that is neither: /usr/bin/python3.11, which
 * it may start; a python* one: refused, saying why */
static bool cmd_binary(SymCtx *sc, const char *cmd, char *path, size_t n, char *err, size_t errlen)
{
	ObjSyms o;
	char e2[128], *p = resolve_binary(cmd, 0, e2, sizeof(e2));
	char *lib = p && !read_obj_syms(p, &o) ? elf_needed_prefix(p, "libpython3") : NULL;
	const char *file = lib ? lib : p;
	const char *base = strrchr(cmd, '/') ? strrchr(cmd, '/') + 1 : cmd;
	bool ok = file && strlen(file) < n && read_obj_syms(file, &o);
	if (ok)
		strcpy(path, file);
	else if (strncmp(base, "python", 6)) /* another program, which may start python3.11 */
		ok = (size_t)snprintf(path, n, "/usr/bin/python3.11") < n;
	else if (!p)
		snprintf(err, errlen, "%s: %s", cmd, e2);
	else if (!elf_get(sc, p, e2, sizeof(e2)))
		snprintf(err, errlen, "%s%s%s is not an ELF executable (a pyenv shim or another "
			 "script?): name the interpreter itself (-c '/path/to/python3.11 ...')", cmd,
			 strcmp(cmd, p) ? ", found at " : "", strcmp(cmd, p) ? p : "");
	else
		snprintf(err, errlen, "%s (%s) is not a CPython sonde can read: neither it nor a "
			 "libpython3 it links has _PyRuntime", cmd, p);
	free(p);
	free(lib);
	return ok;
}

static bool pick_binary(SymCtx *sc, int pid, const char *cmd, char *path, size_t n, char *err, size_t errlen)
{
	if (pid > 0) {
		if (python_of_pid(pid, path, n))
			return true;
		snprintf(err, errlen, "process %d runs no CPython that sonde can read "
			 "(neither its executable nor a libpython3.11 it maps has _PyRuntime)", pid);
		return false;
	}
	if (cmd)
		return cmd_binary(sc, cmd, path, n, err, errlen);
	snprintf(path, n, "/usr/bin/python3.11");
	return true;
}

/* PyCode_Type.tp_dealloc, where a uprobe sees each code object freed (the
 * cache must forget it: another may take its address).  The file holds the
 * pointer (a shared library's as its relocation's addend, which the linker
 * writes there too); it must fall in the file's code. */
static bool find_code_dealloc(SymCtx *sc, PyLayout *out, const ObjSyms *o, char *err, size_t errlen)
{
	uint64_t fn = 0;
	char e2[128];
	const ElfFile *f = elf_get(sc, out->path, e2, sizeof(e2));
	if (f && read_at_vaddr(sc, out->path, o->code_type + TP_DEALLOC, &fn, 8) && fn)
		out->code_dealloc = elf_vaddr_to_offset(f, fn);
	if (f && fn && out->code_dealloc != (uint64_t)-1)
		return true;
	snprintf(err, errlen, "%s: cannot find PyCode_Type's tp_dealloc in the file: sonde "
		 "must see code objects freed to tell a new one at the same address from the old",
		 out->path);
	return false;
}

static bool check_binary(SymCtx *sc, PyLayout *out, const ObjSyms *o, uint64_t bias, char *err, size_t errlen)
{
	uint32_t ver = 0;
	uint64_t basicsize = 0;
	if (!read_at_vaddr(sc, out->path, o->version, &ver, 4) ||
	    !read_at_vaddr(sc, out->path, o->code_type + 32, &basicsize, 8)) {
		snprintf(err, errlen, "%s: cannot read Py_Version and PyCode_Type from the file",
			 out->path);
		return false;
	}
	unsigned major = ver >> 24, minor = (ver >> 16) & 0xff;
	snprintf(out->version, sizeof(out->version), "%u.%u.%u", major, minor, (ver >> 8) & 0xff);
	const PyVersionTable *v = NULL;
	for (size_t i = 0; i < sizeof(versions) / sizeof(versions[0]); i++)
		if (versions[i].major == major && versions[i].minor == minor)
			v = &versions[i];
	if (!v) {
		snprintf(err, errlen, "%s is CPython %s: sonde reads the frames of CPython 3.11 only",
			 out->path, out->version);
		return false;
	}
	if ((int)basicsize != v->tp_basicsize || o->runtime_size != v->runtime_size) {
		snprintf(err, errlen, "%s (CPython %s) does not match sonde's 3.11 layout "
			 "(code objects %llu bytes, expected %d; _PyRuntime %llu bytes, expected "
			 "%llu): refusing to print wrong stacks", out->path, out->version,
			 (unsigned long long)basicsize, v->tp_basicsize,
			 (unsigned long long)o->runtime_size, (unsigned long long)v->runtime_size);
		return false;
	}
	char path[sizeof(out->path)];
	memcpy(path, out->path, sizeof(path));
	*out = v->l;
	memcpy(out->path, path, sizeof(path));
	snprintf(out->version, sizeof(out->version), "%u.%u.%u", major, minor, (ver >> 8) & 0xff);
	out->runtime = o->runtime + bias;
	out->code_type = o->code_type + bias;
	return find_code_dealloc(sc, out, o, err, errlen);
}

/* A position-independent interpreter (a libpython, a PIE python) of a -c
 * command that has not started: its load address is learned in the
 * process, by a uprobe on Py_InitializeFromConfig, which every way of
 * starting CPython runs once before any Python code (runtime/pycode.c) */
static bool late_bias(SymCtx *sc, PyLayout *out, const ObjSyms *o, const char *cmd, char *err, size_t errlen)
{
	char e2[128];
	const ElfFile *f = elf_get(sc, out->path, e2, sizeof(e2));
	if (cmd && f && o->init && (out->init_off = elf_vaddr_to_offset(f, o->init)) != (uint64_t)-1) {
		out->bias_late = true;
		out->init_vaddr = o->init;
		return true;
	}
	snprintf(err, errlen, "%s is position-independent: its addresses are known only "
		 "per process; give -p PID (system-wide, sonde reads the processes of "
		 "/usr/bin/python3.11 only)", out->path);
	return false;
}

bool pylayout_find(SymCtx *sc, int pid, const char *cmd, PyLayout *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	if (!pick_binary(sc, pid, cmd, out->path, sizeof(out->path), err, errlen))
		return false;
	ObjSyms o;
	if (!read_obj_syms(out->path, &o)) {
		snprintf(err, errlen, "%s has no _PyRuntime, PyCode_Type and Py_Version symbols: "
			 "not a CPython sonde can read (give -p PID of a python process)", out->path);
		return false;
	}
	char e2[128];
	const ElfFile *f = elf_get(sc, out->path, e2, sizeof(e2));
	bool dyn = f && f->dyn;
	uint64_t bias = 0;
	bool late = !load_bias(sc, pid, out->path, dyn, &bias);
	if (!check_binary(sc, out, &o, bias, err, errlen) || (late && !late_bias(sc, out, &o, cmd, err, errlen)))
		return false;
	out->task_fsbase = fsbase_offset(sc);
	if (out->task_fsbase < 0) {
		snprintf(err, errlen, "the kernel's BTF has no task_struct.thread.fsbase: sonde "
			 "finds a thread's Python state through it");
		return false;
	}
	return true;
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
