/* DWARF walkers with perf probe's rules (see dwarf_walk.h). */
#include <errno.h>
#include <string.h>

#include "dwarf_walk.h"

int strtailcmp(const char *a, const char *b)
{
	int i = (int)strlen(a), j = (int)strlen(b);
	while (--i >= 0 && --j >= 0)
		if (a[i] != b[j])
			return a[i] - b[j];
	return 0;
}

int dw_entrypc(Dwarf_Die *d, Dwarf_Addr *addr)
{
	Dwarf_Attribute a;
	Dwarf_Addr base, end;
	if (dwarf_entrypc(d, addr) == 0)
		return 0;
	if (!dwarf_attr(d, DW_AT_ranges, &a))
		return -1;
	return dwarf_ranges(d, 0, &base, addr, &end) < 0 ? -1 : 0;
}

bool dw_is_func_def(Dwarf_Die *d)
{
	Dwarf_Attribute a;
	Dwarf_Addr addr;
	if (dwarf_tag(d) != DW_TAG_subprogram || dwarf_attr(d, DW_AT_declaration, &a))
		return false;
	/* gcc can drop DW_AT_declaration (its bug 97060): want code or inline */
	return dwarf_attr(d, DW_AT_inline, &a) || dw_entrypc(d, &addr) == 0;
}

bool dw_is_func_instance(Dwarf_Die *d)
{
	Dwarf_Addr a;
	Dwarf_Attribute at;
	int tag = dwarf_tag(d);
	if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine)
		return false;
	return dwarf_entrypc(d, &a) == 0 || dwarf_attr(d, DW_AT_ranges, &at);
}

static const char *cu_file_name(Dwarf_Die *d, int idx)
{
	Dwarf_Die cu;
	Dwarf_Files *files;
	size_t n;
	if (idx < 0 || !dwarf_diecu(d, &cu, NULL, NULL) || dwarf_getsrcfiles(&cu, &files, &n) != 0 ||
	    (size_t)idx >= n)
		return NULL;
	return dwarf_filesrc(files, (size_t)idx, NULL, NULL);
}

static int udata_attr(Dwarf_Die *d, unsigned name)
{
	Dwarf_Attribute a;
	Dwarf_Word v;
	if (!dwarf_attr(d, name, &a) || dwarf_formudata(&a, &v) != 0)
		return -1;
	return (int)v;
}

const char *dw_call_file(Dwarf_Die *inl)
{
	return cu_file_name(inl, udata_attr(inl, DW_AT_call_file));
}

int dw_call_line(Dwarf_Die *inl)
{
	return udata_attr(inl, DW_AT_call_line);
}

Dwarf_Die *dw_find_child(Dwarf_Die *root, DieFn cb, void *data, Dwarf_Die *mem)
{
	Dwarf_Die child;
	if (dwarf_child(root, mem) != 0)
		return NULL;
	int r;
	do {
		r = cb(mem, data);
		if (r == DWF_END)
			return mem;
		if ((r & DWF_CHILD) && dw_find_child(mem, cb, data, &child)) {
			*mem = child;
			return mem;
		}
	} while ((r & DWF_SIBLING) && dwarf_siblingof(mem, mem) == 0);
	return NULL;
}

static int inline_at_cb(Dwarf_Die *d, void *data)
{
	Dwarf_Addr *addr = data;
	if (dwarf_tag(d) == DW_TAG_inlined_subroutine && dwarf_haspc(d, *addr) > 0)
		return DWF_END;
	return DWF_CONTINUE;
}

/* the innermost inline instance holding addr */
static Dwarf_Die *find_inlinefunc(Dwarf_Die *sp, Dwarf_Addr addr, Dwarf_Die *mem)
{
	Dwarf_Die tmp;
	Dwarf_Die *d = dw_find_child(sp, inline_at_cb, &addr, &tmp);
	if (!d)
		return NULL;
	while (d) {
		*mem = *d;
		d = dw_find_child(mem, inline_at_cb, &addr, &tmp);
	}
	return mem;
}

typedef struct LineWalk {
	LineFn fn;
	void *data;
	bool recursive;
	int ret;
} LineWalk;

static int funclines_cb(Dwarf_Die *d, void *data)
{
	LineWalk *lw = data;
	Dwarf_Addr addr = 0;
	if (dwarf_tag(d) == DW_TAG_inlined_subroutine) {
		const char *f = dw_call_file(d);
		int line = dw_call_line(d);
		if (f && line > 0 && dw_entrypc(d, &addr) == 0 && (lw->ret = lw->fn(f, line, addr, lw->data)))
			return DWF_END;
		if (!lw->recursive)
			return DWF_SIBLING;
	}
	if (addr) {
		const char *f = dwarf_decl_file(d);
		int line;
		if (f && dwarf_decl_line(d, &line) == 0 && (lw->ret = lw->fn(f, line, addr, lw->data)))
			return DWF_END;
	}
	return DWF_CONTINUE;
}

/* a function's declaration line at its entry, and its inline call sites */
static int walk_funclines(Dwarf_Die *sp, bool recursive, LineFn fn, void *data)
{
	LineWalk lw = {fn, data, recursive, 0};
	const char *f = dwarf_decl_file(sp);
	int line;
	Dwarf_Addr addr;
	Dwarf_Die mem;
	if (f && dwarf_decl_line(sp, &line) == 0 && dw_entrypc(sp, &addr) == 0 &&
	    (lw.ret = fn(f, line, addr, data)))
		return lw.ret;
	dw_find_child(sp, funclines_cb, &lw, &mem);
	return lw.ret;
}

static int culines_cb(Dwarf_Die *sp, void *data)
{
	LineWalk *lw = data;
	lw->ret = walk_funclines(sp, true, lw->fn, lw->data);
	return lw->ret ? DWARF_CB_ABORT : DWARF_CB_OK;
}

/* a line of the function's own code: not inside an inline instance, except
 * the instance's call site or an instance of the function itself */
static bool own_line(Dwarf_Die *root, Dwarf_Addr addr, int line, const char *decf, int decl)
{
	Dwarf_Die inl;
	if (dwarf_haspc(root, addr) <= 0)
		return false;
	if (!find_inlinefunc(root, addr, &inl))
		return true;
	const char *inf = dw_call_file(&inl);
	if (inf && decf && !strcmp(inf, decf) && dw_call_line(&inl) == line)
		return true;
	int il = 0;
	dwarf_decl_line(&inl, &il);
	return il == decl && decf == dwarf_decl_file(&inl);
}

int dw_walk_lines(Dwarf_Die *root, LineFn fn, void *data)
{
	Dwarf_Die cumem, *cu = root;
	const char *decf = NULL;
	int decl = 0;
	if (dwarf_tag(root) != DW_TAG_compile_unit) {
		cu = dwarf_diecu(root, &cumem, NULL, NULL);
		dwarf_decl_line(root, &decl);
		decf = dwarf_decl_file(root);
	}
	Dwarf_Lines *lines;
	size_t n;
	if (!cu)
		return -EINVAL;
	if (dwarf_getsrclines(cu, &lines, &n) != 0)
		return -ENOENT;
	int prev_line = -1;
	Dwarf_Addr prev_addr = 0;
	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		int line;
		Dwarf_Addr addr;
		bool flag;
		if (!l || dwarf_lineno(l, &line) != 0 || dwarf_lineaddr(l, &addr) != 0)
			continue;
		if (dwarf_lineendsequence(l, &flag) != 0 || flag)
			continue;
		if (dwarf_linebeginstatement(l, &flag) != 0 || !flag)
			continue;
		if (root != cu && !own_line(root, addr, line, decf, decl))
			continue;
		if (line == prev_line && addr == prev_addr)
			continue; /* the same row again (location views) */
		prev_line = line;
		prev_addr = addr;
		int r = fn(dwarf_linesrc(l, NULL, NULL), line, addr, data);
		if (r)
			return r;
	}
	if (root != cu)
		return walk_funclines(root, false, fn, data);
	LineWalk lw = {fn, data, true, 0};
	dwarf_getfuncs(cu, culines_cb, &lw, 0);
	return lw.ret;
}

typedef struct InstWalk {
	void *origin_addr;
	DieFn fn;
	void *data;
	int ret;
} InstWalk;

static int instances_cb(Dwarf_Die *d, void *data)
{
	InstWalk *iw = data;
	Dwarf_Attribute a;
	Dwarf_Die o;
	if (!dw_is_func_instance(d) || !dwarf_attr(d, DW_AT_abstract_origin, &a) ||
	    !dwarf_formref_die(&a, &o) || o.addr != iw->origin_addr)
		return DWF_CONTINUE;
	if (dwarf_tag(d) == DW_TAG_inlined_subroutine) {
		int line = 0;
		dwarf_decl_line(&o, &line);
		/* a redundant instance at the function's own declaration */
		if (dw_call_line(d) == line && udata_attr(d, DW_AT_call_file) == udata_attr(&o, DW_AT_decl_file))
			return DWF_CONTINUE;
	}
	iw->ret = iw->fn(d, iw->data);
	return iw->ret ? DWF_END : DWF_CONTINUE;
}

int dw_walk_instances(Dwarf_Die *origin, DieFn fn, void *data)
{
	Dwarf_Die cu, mem;
	InstWalk iw = {origin->addr, fn, data, -ENOENT};
	if (!dwarf_diecu(origin, &cu, NULL, NULL))
		return -ENOENT;
	dw_find_child(&cu, instances_cb, &iw, &mem);
	return iw.ret;
}

typedef struct AddrFind {
	Dwarf_Addr addr;
	Dwarf_Die *mem;
	bool found;
} AddrFind;

static int realfunc_cb(Dwarf_Die *d, void *data)
{
	AddrFind *af = data;
	if (dwarf_tag(d) == DW_TAG_subprogram && dwarf_haspc(d, af->addr) > 0) {
		*af->mem = *d;
		af->found = true;
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

Dwarf_Die *dw_find_realfunc(Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Die *mem)
{
	AddrFind af = {addr, mem, false};
	dwarf_getfuncs(cu, realfunc_cb, &af, 0);
	return af.found ? mem : NULL;
}

int dw_walk_functions_at(Dwarf_Die *cu, Dwarf_Addr addr, DieFn fn, void *data)
{
	Dwarf_Die mem, *d;
	int r = -ENOENT;
	for (d = dw_find_realfunc(cu, addr, &mem); d; d = dw_find_child(d, inline_at_cb, &addr, &mem))
		if ((r = fn(d, data)))
			break;
	return r;
}

/* the statement line at addr: first of those at addr, then on to a
 * statement (the line table is sorted by address) */
static Dwarf_Line *cu_getsrc(Dwarf_Die *cu, Dwarf_Addr addr)
{
	Dwarf_Lines *lines;
	size_t n;
	Dwarf_Addr la;
	bool flag;
	if (dwarf_getsrclines(cu, &lines, &n) != 0 || n == 0)
		return NULL;
	size_t lo = 0, hi = n - 1;
	while (lo < hi) {
		size_t mid = hi - (hi - lo) / 2;
		if (dwarf_lineaddr(dwarf_onesrcline(lines, mid), &la) != 0)
			return NULL;
		if (addr < la)
			hi = mid - 1;
		else
			lo = mid;
	}
	/* back to the first row at addr; perf's loop looks one row back before
	 * testing, so the table's first row never matches */
	do {
		if (lo == 0 || dwarf_lineaddr(dwarf_onesrcline(lines, --lo), &la) != 0)
			return NULL;
	} while (la == addr);
	lo++;
	for (; lo < n; lo++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, lo);
		if (dwarf_lineaddr(l, &la) != 0 || dwarf_linebeginstatement(l, &flag) != 0 || la > addr)
			return NULL;
		if (flag)
			return l;
	}
	return NULL;
}

int dw_cu_lineinfo(Dwarf_Die *cu, Dwarf_Addr addr, const char **file, int *line)
{
	Dwarf_Die fn;
	Dwarf_Addr entry;
	*file = NULL;
	*line = 0;
	if (dw_find_realfunc(cu, addr, &fn) && dw_entrypc(&fn, &entry) == 0 && entry == addr) {
		*file = dwarf_decl_file(&fn);
		dwarf_decl_line(&fn, line);
	} else {
		Dwarf_Line *l = cu_getsrc(cu, addr);
		if (l && dwarf_lineno(l, line) == 0 && !(*file = dwarf_linesrc(l, NULL, NULL)))
			*line = 0;
	}
	return *line && *file ? *line : -1;
}

const char *dw_cu_find_file(Dwarf_Die *cu, const char *name)
{
	Dwarf_Files *files;
	size_t n;
	if (dwarf_getsrcfiles(cu, &files, &n) != 0)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const char *f = dwarf_filesrc(files, i, NULL, NULL);
		if (f && !strtailcmp(f, name))
			return f;
	}
	return NULL;
}

Dwarf_Op *dw_frame_base(Dwarf_Die *sp, Dwarf_Addr addr, Dwarf_CFI *cfi, size_t *nops, Dwarf_Frame **framep)
{
	*framep = NULL;
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	if (!dwarf_attr(sp, DW_AT_frame_base, &a) || dwarf_getlocation_addr(&a, addr, &ops, nops, 1) <= 0 ||
	    *nops == 0)
		return NULL;
	if (*nops == 1 && ops[0].atom == DW_OP_call_frame_cfa && cfi) {
		/* no call frame info: the frame base stays DW_OP_call_frame_cfa,
		 * which no variable location can be computed from */
		Dwarf_Frame *frame;
		Dwarf_Op *cfa;
		if (dwarf_cfi_addrframe(cfi, addr, &frame) != 0)
			return NULL;
		if (dwarf_frame_cfa(frame, &cfa, nops) == 0)
			ops = cfa;
		*framep = frame; /* the caller frees it once done with ops, which point into it */
	}
	return ops;
}

int dw_var_location(Dwarf_Die *var, Dwarf_Addr addr, Dwarf_Op *fb, Dwarf_Die *sp, VarLoc *out)
{
	Dwarf_Attribute a;
	Dwarf_Op *op;
	size_t nops;
	VarLoc loc = {0};
	if (dwarf_attr(var, DW_AT_external, &a)) {
		loc.kind = VL_STATIC;
		goto done;
	}
	if (dwarf_attr(var, DW_AT_const_value, &a)) { /* optimized to a constant */
		Dwarf_Sword v = 0;
		dwarf_formsdata(&a, &v);
		loc.kind = VL_CONST;
		loc.value = (long)v;
		goto done;
	}
	if (!dwarf_attr(var, DW_AT_location, &a))
		return -EINVAL;
	if (dwarf_getlocation_addr(&a, addr, &op, &nops, 1) <= 0) {
		/* a parameter at the entry: where it is first known (perf
		 * searches forward for the entry fuzzed by mcount) */
		Dwarf_Addr entry, high;
		if (dwarf_entrypc(sp, &entry) != 0 || addr != entry ||
		    dwarf_tag(var) != DW_TAG_formal_parameter || dwarf_highpc(sp, &high) != 0)
			return -ENOENT;
		for (addr++; addr <= high; addr++)
			if (dwarf_getlocation_addr(&a, addr, &op, &nops, 1) > 0)
				break;
		if (addr > high)
			return -ENOENT;
	}
	if (nops == 0)
		return -ENOENT;
	if (op->atom == DW_OP_addr) {
		loc.kind = VL_STATIC;
		loc.addr = op->number;
		goto done;
	}
	if (op->atom == DW_OP_fbreg) {
		if (!fb)
			return -ENOTSUP;
		loc.kind = VL_MEM;
		loc.offset = (long)op->number;
		op = &fb[0];
	}
	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
		loc.kind = VL_MEM;
		loc.regno = op->atom - DW_OP_breg0;
		loc.offset += (long)op->number;
	} else if (op->atom >= DW_OP_reg0 && op->atom <= DW_OP_reg31) {
		if (loc.kind != VL_MEM)
			loc.kind = VL_REG;
		loc.regno = op->atom - DW_OP_reg0;
	} else if (op->atom == DW_OP_bregx) {
		loc.kind = VL_MEM;
		loc.regno = (int)op->number;
		loc.offset += (long)op->number2;
	} else if (op->atom == DW_OP_regx) {
		if (loc.kind != VL_MEM)
			loc.kind = VL_REG;
		loc.regno = (int)op->number;
	} else {
		return -ENOTSUP;
	}
done:
	if (out)
		*out = loc;
	return 0;
}

Dwarf_Die *dw_type_of(Dwarf_Die *d, Dwarf_Die *mem)
{
	Dwarf_Attribute a;
	if (!dwarf_attr_integrate(d, DW_AT_type, &a))
		return NULL;
	return dwarf_formref_die(&a, mem);
}

Dwarf_Die *dw_real_type(Dwarf_Die *d, Dwarf_Die *mem)
{
	int tag;
	do {
		d = dw_type_of(d, mem);
		if (!d)
			return NULL;
		tag = dwarf_tag(d);
	} while (tag == DW_TAG_const_type || tag == DW_TAG_restrict_type || tag == DW_TAG_volatile_type ||
		 tag == DW_TAG_shared_type);
	return d;
}

Dwarf_Die *dw_resolved_type(Dwarf_Die *d, Dwarf_Die *mem)
{
	do
		d = dw_real_type(d, mem);
	while (d && dwarf_tag(d) == DW_TAG_typedef);
	return d;
}

/* perf's type text: typedef names kept, qualifiers dropped, pointers and
 * arrays as '*', function pointers as "(function_type)" */
static bool var_type_text(Dwarf_Die *d, StrBuf *b)
{
	Dwarf_Die t;
	if (!dw_real_type(d, &t))
		return false;
	int tag = dwarf_tag(&t);
	if (tag == DW_TAG_subroutine_type) {
		sb_puts(b, "(function_type)");
		return true;
	}
	if (tag == DW_TAG_array_type || tag == DW_TAG_pointer_type) {
		if (!var_type_text(&t, b))
			return false;
		sb_puts(b, "*");
		return true;
	}
	const char *name = dwarf_diename(&t);
	if (!name)
		return false;
	sb_printf(b, "%s%s",
		  tag == DW_TAG_union_type       ? "union "
		  : tag == DW_TAG_structure_type ? "struct "
		  : tag == DW_TAG_enumeration_type ? "enum "
						   : "",
		  name);
	return true;
}

bool dw_var_text(Dwarf_Die *var, StrBuf *out)
{
	const char *name = dwarf_diename(var);
	StrBuf t = {0};
	if (!name)
		return false;
	if (!var_type_text(var, &t)) {
		sb_reset(&t);
		sb_puts(&t, "(unknown_type)");
	}
	sb_printf(out, "%s\t%s", t.s, name);
	sb_free(&t);
	return true;
}
