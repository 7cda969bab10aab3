/* Finding the places of a probe point in DWARF, with perf probe's rules:
 * every CU is searched; a function's entry (or its inline instances), a
 * line relative to its declaration, a source line, or a lazy pattern; each
 * place is checked to be the line's representative address. */
#include <errno.h>
#include <fnmatch.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../util/util.h"
#include "probe_find.h"

typedef struct Finder {
	DebugInfo *di;
	const ProbePoint *pp;
	const FindOpts *opts;
	SiteFn fn;
	void *data;
	Dwarf_CFI *cfi;
	Dwarf_Die cu;
	const char *fname; /* the file the line numbers are of */
	int lno;
	Dwarf_Addr addr;
	VEC(int) lazy_lines;
	bool lazy_read;
	int nsites;
	int ret; /* of the dwarf_getfuncs callback */
} Finder;

static bool match_name(Dwarf_Die *d, const char *name)
{
	const char *n = dwarf_diename(d);
	if (!n)
		return false;
	return is_glob(name) ? fnmatch(name, n, 0) == 0 : !strcmp(n, name);
}

typedef struct Scope {
	const char *function, *file;
	int line, diff;
	Dwarf_Die *mem;
	bool found;
} Scope;

static int best_scope_cb(Dwarf_Die *fn, void *data)
{
	Scope *s = data;
	if (s->file) {
		const char *f = dwarf_decl_file(fn);
		if (!f || strcmp(s->file, f))
			return 0;
	}
	if (s->function) {
		if (!match_name(fn, s->function))
			return 0;
		*s->mem = *fn;
		s->found = true;
		return 1;
	}
	int l = 0;
	dwarf_decl_line(fn, &l);
	if (l < s->line && s->diff > s->line - l) { /* the nearest above */
		s->diff = s->line - l;
		*s->mem = *fn;
		s->found = true;
	}
	return 0;
}

static int inner_scope_cb(Dwarf_Die *fn, void *data)
{
	Scope *s = data;
	*s->mem = *fn;
	s->found = true;
	return 1;
}

static Dwarf_Die *best_scope(Finder *f, Dwarf_Die *mem)
{
	Scope s = {f->pp->function, f->fname, f->lno, 1 << 30, mem, false};
	int r = dw_walk_functions_at(&f->cu, f->addr, best_scope_cb, &s);
	if (!r && !s.found)
		dw_walk_functions_at(&f->cu, f->addr, inner_scope_cb, &s);
	return s.found ? mem : NULL;
}

/* the symbol of the binary holding addr (a function whose DIE has no
 * entry address: split into ranges) */
static const char *symbol_at(DebugInfo *di, Dwarf_Addr addr, Dwarf_Addr *start)
{
	Elf_Scn *scn = NULL;
	while (di->elf && (scn = elf_nextscn(di->elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			if (gelf_getsym(d, (int)i, &s) && GELF_ST_TYPE(s.st_info) == STT_FUNC &&
			    addr >= s.st_value && addr < s.st_value + s.st_size) {
				*start = s.st_value;
				return elf_strptr(di->elf, sh.sh_link, s.st_name);
			}
		}
	}
	return NULL;
}

/* perf's convert_to_trace_point: the symbol and offset of the place */
static int site_symbol(Finder *f, ProbeSite *s)
{
	Dwarf_Addr entry;
	if (dwarf_haspc(&s->sp, s->addr) <= 0) {
		probe_err("Specified offset is out of %s\n", dwarf_diename(&s->sp));
		return -EINVAL;
	}
	if (dwarf_entrypc(&s->sp, &entry) == 0) {
		s->symbol = dwarf_diename(&s->sp);
	} else if (!(s->symbol = symbol_at(f->di, s->addr, &entry))) {
		probe_err("Failed to find symbol at 0x%lx\n", (unsigned long)s->addr);
		return -ENOENT;
	}
	s->offset = (unsigned long)(s->addr - entry);
	if (f->pp->retprobe && entry != s->addr) {
		probe_err("Failed to find \"%s%%return\",\n because %s is an inlined function and has no "
			  "return point.\n",
			  f->pp->function, f->pp->function);
		return -EINVAL;
	}
	return 0;
}

static int call_finder(Finder *f, Dwarf_Die *scope)
{
	ProbeSite s = {.cu = f->cu, .scope = *scope, .addr = f->addr};
	if (!dw_is_func_def(scope)) {
		if (!dw_find_realfunc(&f->cu, f->addr, &s.sp)) {
			probe_err("Failed to find probe point in any functions.\n");
			return -ENOENT;
		}
	} else {
		s.sp = *scope;
	}
	size_t n;
	Dwarf_Frame *frame;
	s.fb = dw_frame_base(&s.sp, f->addr, f->cfi, &n, &frame);
	int r = site_symbol(f, &s);
	if (!r) {
		f->nsites++;
		r = f->fn(&s, f->data);
	}
	free(frame);
	return r;
}

/* a line whose address reverses to another line is not probe-able */
static int verify_line(Finder *f, const char *fname, int lineno, Dwarf_Addr addr)
{
	const char *rf;
	int rl;
	if (dw_cu_lineinfo(&f->cu, addr, &rf, &rl) < 0 || strcmp(fname, rf) || lineno == rl)
		return 0;
	probe_err("This line is sharing the address with other lines.\n");
	const char *func = NULL;
	Dwarf_Die mem;
	int decl;
	if (f->pp->function) {
		f->addr = addr;
		if (best_scope(f, &mem) && match_name(&mem, f->pp->function) && dwarf_decl_line(&mem, &decl) == 0) {
			func = dwarf_diename(&mem);
			rl -= decl;
		}
	}
	probe_err("Please try to probe at %s:%d instead.\n", func ? func : rf, rl);
	return -ENOENT;
}

static int at_scope(Finder *f)
{
	Dwarf_Die mem, *sc = best_scope(f, &mem);
	if (!sc) {
		probe_err("Failed to find scope of probe point.\n");
		return -ENOENT;
	}
	int r = call_finder(f, sc);
	return r < 0 ? r : 0;
}

static int line_walker(const char *fname, int lineno, Dwarf_Addr addr, void *data)
{
	Finder *f = data;
	if (lineno != f->lno || strtailcmp(fname, f->fname))
		return 0;
	if (verify_line(f, fname, lineno, addr))
		return -ENOENT;
	f->addr = addr;
	return at_scope(f);
}

/* perf's lazy match: a glob over the line with blanks ignored */
static bool lazy_match(const char *line, const char *pat)
{
	StrBuf a = {0}, b = {0};
	for (const char *p = line; *p; p++)
		if (*p != ' ' && *p != '\t')
			sb_putc(&a, *p);
	for (const char *p = pat; *p; p++)
		if (*p != ' ' && *p != '\t')
			sb_putc(&b, *p);
	bool m = fnmatch(b.s ? b.s : "", a.s ? a.s : "", 0) == 0;
	sb_free(&a);
	sb_free(&b);
	return m;
}

static bool lazy_has(Finder *f, int line)
{
	for (int i = 0; i < f->lazy_lines.n; i++)
		if (f->lazy_lines.v[i] == line)
			return true;
	return false;
}

static int lazy_walker(const char *fname, int lineno, Dwarf_Addr addr, void *data)
{
	Finder *f = data;
	if (!lazy_has(f, lineno) || strtailcmp(fname, f->fname))
		return 0;
	f->addr = addr;
	f->lno = lineno;
	return at_scope(f);
}

char *probe_source_path(const char *raw, const char *comp_dir)
{
	StrBuf b = {0};
	if (raw[0] != '/' && comp_dir)
		sb_printf(&b, "%s/%s", comp_dir, raw);
	else
		sb_puts(&b, raw);
	if (access(b.s, R_OK) == 0)
		return b.s;
	sb_free(&b);
	return NULL;
}

static int find_lazy(Finder *f, Dwarf_Die *root)
{
	if (!f->lazy_read) {
		Dwarf_Attribute a;
		const char *comp = dwarf_formstring(dwarf_attr(&f->cu, DW_AT_comp_dir, &a));
		char *path = probe_source_path(f->fname, comp);
		if (!path) {
			probe_err("Failed to find source file path.\n");
			return -ENOENT;
		}
		FILE *fp = fopen(path, "r");
		free(path);
		if (!fp)
			return -errno;
		char *line = NULL;
		size_t cap = 0;
		ssize_t len;
		for (int n = 1; (len = getline(&line, &cap, fp)) > 0; n++) {
			if (line[len - 1] == '\n')
				line[len - 1] = '\0';
			if (lazy_match(line, f->pp->lazy))
				vec_push(&f->lazy_lines, n);
		}
		free(line);
		fclose(fp);
		f->lazy_read = true;
		if (!f->lazy_lines.n)
			return 0;
	}
	return dw_walk_lines(root, lazy_walker, f);
}

static bool optimized_cu(Dwarf_Die *d)
{
	Dwarf_Die t;
	int tag = dwarf_tag(d);
	Dwarf_Attribute a;
	if ((tag == DW_TAG_formal_parameter || tag == DW_TAG_variable) &&
	    dwarf_attr_integrate(d, DW_AT_location, &a) && dwarf_whatform(&a) == DW_FORM_sec_offset)
		return true;
	if (dwarf_child(d, &t) == 0 && optimized_cu(&t))
		return true;
	return dwarf_siblingof(d, &t) == 0 && optimized_cu(&t);
}

/* -O0 code: arguments are valid after the prologue (perf moves the probe
 * to the second line entry of the function) */
static void skip_prologue(Finder *f, Dwarf_Die *sp)
{
	const ProbePoint *pp = f->pp;
	if (!f->opts || !f->opts->skip_prologue || !f->addr || pp->line || pp->retprobe || pp->lazy ||
	    pp->offset || optimized_cu(&f->cu))
		return;
	probe_err("Target program is compiled without optimization. Skipping prologue.\n"
		  "Probe on address 0x%lx to force probing at the function entry.\n\n",
		  (unsigned long)f->addr);
	Dwarf_Lines *lines;
	size_t n, i;
	Dwarf_Addr high, a;
	if (dwarf_highpc(sp, &high) || dwarf_getsrclines(&f->cu, &lines, &n))
		return;
	for (i = 0; i < n; i++)
		if (dwarf_lineaddr(dwarf_onesrcline(lines, i), &a) == 0 && a == f->addr)
			break;
	if (i == n)
		return;
	int first, lno;
	bool pend;
	size_t j = i;
	dwarf_lineno(dwarf_onesrcline(lines, i), &first);
	for (; j < n; j++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, j);
		if (dwarf_lineaddr(l, &a) || dwarf_lineno(l, &lno) || dwarf_lineprologueend(l, &pend))
			return;
		if (a >= high || pend || lno != first || j != i)
			break;
	}
	if (j == n)
		j = n - 1;
	dwarf_lineaddr(dwarf_onesrcline(lines, j), &a);
	if (a >= high && j > 0)
		dwarf_lineaddr(dwarf_onesrcline(lines, j - 1), &a);
	f->addr = a;
}

static int inline_cb(Dwarf_Die *in, void *data)
{
	Finder *f = data;
	if (f->pp->lazy)
		return find_lazy(f, in);
	Dwarf_Addr a;
	if (dw_entrypc(in, &a) != 0) {
		probe_err("Failed to get entry address of %s.\n", dwarf_diename(in));
		return -ENOENT;
	}
	f->addr = a + f->pp->offset;
	return call_finder(f, in);
}

static int search_cb(Dwarf_Die *sp, void *data)
{
	Finder *f = data;
	const ProbePoint *pp = f->pp;
	if (!dw_is_func_def(sp) || !match_name(sp, pp->function))
		return DWARF_CB_OK;
	if (pp->file && (!dwarf_decl_file(sp) || strtailcmp(pp->file, dwarf_decl_file(sp))))
		return DWARF_CB_OK;
	f->fname = dwarf_decl_file(sp);
	if (pp->line) {
		dwarf_decl_line(sp, &f->lno);
		f->lno += pp->line;
		f->ret = dw_walk_lines(&f->cu, line_walker, f);
	} else if (dw_is_func_instance(sp)) {
		dw_entrypc(sp, &f->addr);
		if (pp->lazy) {
			f->ret = find_lazy(f, sp);
		} else {
			skip_prologue(f, sp);
			f->addr += pp->offset;
			f->ret = call_finder(f, sp);
		}
	} else {
		f->ret = dw_walk_instances(sp, inline_cb, f);
		if (f->ret == -ENOENT && is_glob(pp->function))
			f->ret = 0;
	}
	if (is_glob(pp->function) && f->ret >= 0) {
		f->ret = 0;
		return DWARF_CB_OK;
	}
	return DWARF_CB_ABORT;
}

int probe_find_sites(DebugInfo *di, const ProbePoint *pp, const FindOpts *o, SiteFn fn, void *data)
{
	bool cfi_owned;
	Finder f = {.di = di, .pp = pp, .opts = o, .fn = fn, .data = data, .cfi = debuginfo_cfi(di, &cfi_owned)};
	Dwarf_Off off = 0, next;
	size_t hsize;
	int r = 0;
	while (dwarf_nextcu(di->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (!dwarf_offdie(di->dw, off + hsize, &f.cu)) {
			off = next;
			continue;
		}
		f.fname = pp->file ? dw_cu_find_file(&f.cu, pp->file) : NULL;
		if (!pp->file || f.fname) {
			if (pp->function) {
				f.ret = 0;
				dwarf_getfuncs(&f.cu, search_cb, &f, 0);
				r = f.ret;
			} else if (pp->lazy) {
				r = find_lazy(&f, &f.cu);
			} else {
				f.lno = pp->line;
				r = dw_walk_lines(&f.cu, line_walker, &f);
			}
			if (r < 0)
				break;
		}
		off = next;
	}
	vec_free(&f.lazy_lines);
	if (cfi_owned && f.cfi)
		dwarf_cfi_end(f.cfi);
	return r < 0 ? r : f.nsites;
}
