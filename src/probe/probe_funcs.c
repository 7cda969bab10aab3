/* sonde probe -F: the binary's symbols as perf probe lists them: functions
 * and data objects of the symbol table (labels only in text and data
 * sections), aliases kept, sorted by name, filtered (default "!_* & !*@plt"). */
#include <errno.h>
#include <gelf.h>
#include <string.h>

#include "../util/util.h"
#include "../util/sort.h"
#include "probe.h"

static bool keep_symbol(Elf *elf, size_t shstrndx, const GElf_Sym *s)
{
	int type = GELF_ST_TYPE(s->st_info);
	if (!s->st_name || s->st_shndx == SHN_UNDEF || s->st_shndx >= SHN_LORESERVE)
		return false;
	bool label = type == STT_NOTYPE && s->st_size == 0;
	if (!label && type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT)
		return false;
	GElf_Shdr sh;
	Elf_Scn *scn = elf_getscn(elf, s->st_shndx);
	if (!scn || !gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
		return false;
	const char *sec = elf_strptr(elf, shstrndx, sh.sh_name);
	return !label || (sec && (strstr(sec, "text") || strstr(sec, "data")));
}

typedef void (*SymFn)(const char *name, const GElf_Sym *s, void *data);

/* perf loads the symbols of .symtab and then of .dynsym */
static void each_symbol(Elf *elf, SymFn fn, void *data)
{
	size_t shstrndx;
	if (!elf || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return;
	for (int pass = 0; pass < 2; pass++) {
		Elf_Scn *scn = NULL;
		GElf_Shdr sh;
		while ((scn = elf_nextscn(elf, scn))) {
			if (!gelf_getshdr(scn, &sh) || sh.sh_type != (pass ? SHT_DYNSYM : SHT_SYMTAB) ||
			    !sh.sh_entsize)
				continue;
			Elf_Data *d = elf_getdata(scn, NULL);
			for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
				GElf_Sym s;
				if (gelf_getsym(d, (int)i, &s) && keep_symbol(elf, shstrndx, &s))
					fn(elf_strptr(elf, sh.sh_link, s.st_name), &s, data);
			}
		}
	}
}

static bool has_symtab(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while (elf && (scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			return true;
	return false;
}

/* perf takes the symbols of the first file with a .symtab: the separate
 * debug file, then the binary */
static Elf *symbol_elf(DebugInfo *di)
{
	Elf *d = di->dw ? dwarf_getelf(di->dw) : NULL;
	return d && d != di->elf && has_symtab(d) ? d : di->elf;
}

typedef VEC(const char *) Names;

/* perf names each PLT entry NAME@plt, from the relocations of .rela.plt */
static void plt_names(Elf *elf, Names *names)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh, dsh;
	if (!elf || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA ||
		    !(n = elf_strptr(elf, shstrndx, sh.sh_name)) || strcmp(n, ".rela.plt"))
			continue;
		Elf_Scn *dyn = elf_getscn(elf, sh.sh_link);
		Elf_Data *rd = elf_getdata(scn, NULL), *dd = dyn ? elf_getdata(dyn, NULL) : NULL;
		if (!rd || !dd || !gelf_getshdr(dyn, &dsh) || !sh.sh_entsize)
			return;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Rela r;
			GElf_Sym s;
			const char *name;
			if (!gelf_getrela(rd, (int)i, &r) ||
			    !gelf_getsym(dd, (int)GELF_R_SYM(r.r_info), &s) ||
			    !(name = elf_strptr(elf, dsh.sh_link, s.st_name)))
				continue;
			StrBuf b = {0};
			sb_printf(&b, "%s@plt", name);
			vec_push(names, b.s); /* kept until exit */
		}
	}
}

static void add_name(const char *name, const GElf_Sym *s, void *data)
{
	(void)s;
	if (name)
		vec_push((Names *)data, name);
}

typedef struct SymFind {
	const char *name;
	DebugInfo *di;
	bool found, ifunc;
	Dwarf_Addr addr;
	GElf_Addr value; /* the symbol's, to pick among several of the name */
} SymFind;

/* Of several symbols of one name (static functions or variables of
 * different files: `i.1`), perf takes the lowest address: its by-name
 * table is sorted stably from address order. */
static void find_name(const char *name, const GElf_Sym *s, void *data)
{
	SymFind *f = data;
	if (!name || strcmp(name, f->name) || (f->found && s->st_value >= f->value))
		return;
	f->found = true;
	f->value = s->st_value;
	f->ifunc = GELF_ST_TYPE(s->st_info) == STT_GNU_IFUNC;
	/* perf keeps a user symbol as its segment's file offset */
	if (!debuginfo_vaddr_to_offset(f->di, s->st_value, &f->addr))
		f->addr = s->st_value;
}

/* perf's reverse lookup: the function and relative line of an address */
int probe_reverse_point(DebugInfo *di, Dwarf_Addr addr, ProbePoint *out)
{
	Dwarf_Die cu, sp;
	const char *file = NULL, *func = NULL;
	int line = 0, base = 0;
	Dwarf_Addr entry = 0;
	if (!dwarf_addrdie(di->dw, addr, &cu)) {
		probe_err("Failed to find debug information for address %lx\n", (unsigned long)addr);
		return -EINVAL;
	}
	dw_cu_lineinfo(&cu, addr, &file, &line);
	if (dw_find_realfunc(&cu, addr, &sp)) {
		func = dwarf_diename(&sp);
		if (!func || dw_entrypc(&sp, &entry) != 0 || dwarf_decl_line(&sp, &base) != 0) {
			line = 0;
		} else {
			file = dwarf_decl_file(&sp);
			if (addr == entry)
				line = base;
		}
	}
	memset(out, 0, sizeof(*out));
	if (line)
		out->line = line - base;
	else if (func)
		out->offset = (unsigned long)(addr - entry);
	out->function = func ? xstrdup(func) : NULL;
	out->file = file ? xstrdup(file) : NULL;
	return file || func ? 0 : -ENOENT;
}

bool probe_symbol_offset(DebugInfo *di, const char *name, Dwarf_Addr *off)
{
	SymFind f = {name, di, false, false, 0, 0};
	each_symbol(symbol_elf(di), find_name, &f);
	*off = f.addr;
	return f.found;
}

int probe_alternative(ProbeCtx *c, const ProbePoint *pp, ProbePoint *out)
{
	if (!pp->function || pp->file)
		return -EOPNOTSUPP; /* works only from a function name */
	SymFind f = {pp->function, c->di, false, false, 0, 0};
	each_symbol(symbol_elf(c->di), find_name, &f);
	if (!f.found || !f.addr)
		return -ENOENT;
	if (f.ifunc)
		probe_err("Warning: The probe function (%s) is a GNU indirect function.\n"
			  "Consider identifying the final function used at run time and set the probe "
			  "directly on that.\n",
			  pp->function);
	int r = probe_reverse_point(c->di, f.addr, out);
	if (r)
		return r;
	out->offset += pp->offset;
	out->line += pp->line;
	out->retprobe = pp->retprobe;
	out->lazy = pp->lazy;
	return 0;
}

int probe_show_funcs(ProbeCtx *c)
{
	Names names = {0};
	each_symbol(symbol_elf(c->di), add_name, &names);
	if (names.n)
		plt_names(c->di->elf, &names);
	if (!names.n) {
		probe_err("Failed to load symbols in %s\n", c->exec);
		return -1;
	}
	qsort(names.v, (size_t)names.n, sizeof(*names.v), cmp_str);
	for (int i = 0; i < names.n; i++)
		if (strfilter_match(c->filter, names.v[i]))
			printf("%s\n", names.v[i]);
	vec_free(&names);
	return 0;
}
