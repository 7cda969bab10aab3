/* A variable's value at one address (see dwarf_local.h). */
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf_local.h"

typedef struct Where {
	Dwarf_Die cu, sp, scope; /* the real function, the innermost scope */
	Dwarf_Addr pc;
	const char *file;        /* pc's source file (base name) and line */
	int line;
	Dwarf_Op *fb;            /* frame base at pc, NULL if none */
	size_t nfb;
} Where;

static int innermost_cb(Dwarf_Die *d, void *data)
{
	*(Dwarf_Die *)data = *d;
	return 0;
}

static bool find_where(DebugInfo *di, Dwarf_Addr pc, Where *w)
{
	w->pc = pc;
	if (!dwarf_addrdie(di->dw, pc, &w->cu) || !dw_find_realfunc(&w->cu, pc, &w->sp))
		return false;
	w->scope = w->sp;
	dw_walk_functions_at(&w->cu, pc, innermost_cb, &w->scope);
	const char *f;
	if (dw_cu_lineinfo(&w->cu, pc, &f, &w->line) > 0)
		w->file = strrchr(f, '/') ? strrchr(f, '/') + 1 : f;
	else
		w->file = "?";
	return true;
}

static bool is_var(Dwarf_Die *d, bool params_only)
{
	int tag = dwarf_tag(d);
	return tag == DW_TAG_formal_parameter || (tag == DW_TAG_variable && !params_only);
}

typedef struct Search {
	const char *name;
	Dwarf_Addr pc;
	bool params_only;
} Search;

/* the first variable called name in the scopes holding pc, as perf finds it */
static int named_cb(Dwarf_Die *d, void *data)
{
	Search *s = data;
	const char *n;
	if (is_var(d, false) && (n = dwarf_diename(d)) && !strcmp(n, s->name))
		return DWF_END;
	return s->pc && dwarf_haspc(d, s->pc) > 0 ? DWF_CONTINUE : DWF_SIBLING;
}

/* The ops of a location that reads exactly: one operation (a register,
 * memory at register + offset, at the frame base + offset, a static), or
 * register + offset / a literal as DW_OP_stack_value, optionally followed
 * by one DW_OP_piece holding the whole variable. */
static int eval_ops(const Where *w, Dwarf_Op *op, size_t n, int size, DwLocal *out)
{
	for (size_t i = 0; i < n; i++)
		if (op[i].atom == DW_OP_entry_value || op[i].atom == DW_OP_GNU_entry_value)
			return -ESRCH; /* its value at the entry: gone by now */
	for (size_t i = 0; i < n; i++)
		if (op[i].atom == DW_OP_piece) {
			if (i + 1 != n || (int)op[i].number < size)
				return -ENOTSUP; /* split over several places */
			n = i;
		}
	bool value = n == 2 && op[1].atom == DW_OP_stack_value;
	if (n != 1 && !value)
		return -ENOTSUP;
	uint8_t a = op->atom;
	if (value && a >= DW_OP_lit0 && a <= DW_OP_lit31) {
		out->kind = DWL_CONST, out->value = a - DW_OP_lit0;
	} else if (value && (a == DW_OP_const1u || a == DW_OP_const2u || a == DW_OP_const4u ||
			     a == DW_OP_const8u || a == DW_OP_constu)) {
		out->kind = DWL_CONST, out->value = (long)op->number;
	} else if (value && (a == DW_OP_const1s || a == DW_OP_const2s || a == DW_OP_const4s ||
			     a == DW_OP_const8s || a == DW_OP_consts)) {
		out->kind = DWL_CONST, out->value = (long)(int64_t)op->number;
	} else if (a >= DW_OP_breg0 && a <= DW_OP_breg31) {
		out->kind = value ? DWL_VALUE : DWL_MEM, out->regno = a - DW_OP_breg0;
		out->offset = (long)(int64_t)op->number;
	} else if (a == DW_OP_bregx) {
		out->kind = value ? DWL_VALUE : DWL_MEM, out->regno = (int)op->number;
		out->offset = (long)(int64_t)op->number2;
	} else if (value) {
		return -ENOTSUP;
	} else if (a >= DW_OP_reg0 && a <= DW_OP_reg31) {
		out->kind = DWL_REG, out->regno = a - DW_OP_reg0;
	} else if (a == DW_OP_regx) {
		out->kind = DWL_REG, out->regno = (int)op->number;
	} else if (a == DW_OP_addr) {
		out->kind = DWL_MEM, out->regno = DW_REG_IP;
		out->offset = (long)(op->number - w->pc);
	} else if (a == DW_OP_fbreg) {
		/* the frame base: a register, or register + offset (the CFA) */
		if (!w->fb || w->nfb != 1)
			return -ENOTSUP;
		uint8_t f = w->fb->atom;
		out->kind = DWL_MEM;
		out->offset = (long)(int64_t)op->number;
		if (f >= DW_OP_breg0 && f <= DW_OP_breg31)
			out->regno = f - DW_OP_breg0, out->offset += (long)(int64_t)w->fb->number;
		else if (f == DW_OP_bregx) /* the CFA, as libdw gives it */
			out->regno = (int)w->fb->number, out->offset += (long)(int64_t)w->fb->number2;
		else if (f >= DW_OP_reg0 && f <= DW_OP_reg31)
			out->regno = f - DW_OP_reg0;
		else
			return -ENOTSUP;
	} else {
		return -ENOTSUP;
	}
	return 0;
}

static int type_size(Dwarf_Die *var)
{
	Dwarf_Die t;
	Dwarf_Attribute a;
	Dwarf_Word v;
	if (!dw_resolved_type(var, &t))
		return 0;
	if (dwarf_tag(&t) == DW_TAG_pointer_type)
		return 8;
	return dwarf_attr_integrate(&t, DW_AT_byte_size, &a) && dwarf_formudata(&a, &v) == 0 ? (int)v : 0;
}

static int locate(const Where *w, Dwarf_Die *var, DwLocal *out)
{
	Dwarf_Attribute a;
	Dwarf_Op *op;
	size_t n;
	out->var = *var;
	if (dwarf_attr_integrate(var, DW_AT_const_value, &a)) {
		Dwarf_Sword v;
		if (dwarf_formsdata(&a, &v) != 0)
			return -ENOTSUP; /* a constant block (a struct) */
		out->kind = DWL_CONST, out->value = (long)v;
		return 0;
	}
	if (!dwarf_attr(var, DW_AT_location, &a) || dwarf_getlocation_addr(&a, w->pc, &op, &n, 1) <= 0 ||
	    n == 0)
		return -ENOENT;
	return eval_ops(w, op, n, type_size(var), out);
}

typedef struct Avail {
	const Where *w;
	StrBuf *list;
	bool params_only;
} Avail;

static int avail_cb(Dwarf_Die *d, void *data)
{
	Avail *av = data;
	DwLocal l;
	const char *n = dwarf_diename(d);
	if (is_var(d, av->params_only) && n && locate(av->w, d, &l) == 0)
		sb_printf(av->list, "%s%s", av->list->len ? ", " : "", n);
	return dwarf_haspc(d, av->w->pc) > 0 ? DWF_CONTINUE : DWF_SIBLING;
}

static const char *scope_name(const Where *w)
{
	const char *n = dwarf_diename((Dwarf_Die *)&w->scope);
	return n ? n : "?";
}

static void say_missing(const Where *w, const char *name, bool params_only, StrBuf *why)
{
	StrBuf list = {0};
	Avail av = {w, &list, params_only};
	Dwarf_Die mem;
	dw_find_child((Dwarf_Die *)&w->scope, avail_cb, &av, &mem);
	sb_printf(why, "%s has no %s '%s' at %s:%d (readable there: %s)", scope_name(w),
		  params_only ? "parameter" : "variable", name, w->file, w->line, list.len ? list.s : "none");
	sb_free(&list);
}

static int find_local(const Where *w, const char *name, bool params_only, DwLocal *out,
		      StrBuf *why)
{
	Search s = {name, w->pc, params_only};
	Dwarf_Die var;
	bool found = dw_find_child((Dwarf_Die *)&w->scope, named_cb, &s, &var) != NULL;
	if (!found && !params_only) { /* the CU's statics and globals */
		s.pc = 0;
		found = dw_find_child((Dwarf_Die *)&w->cu, named_cb, &s, &var) != NULL;
	}
	if (!found || (params_only && dwarf_tag(&var) != DW_TAG_formal_parameter)) {
		say_missing(w, name, params_only, why);
		if (found)
			sb_printf(why, "; '%s' is a local variable: locals.%s reads it", name, name);
		return -1;
	}
	int r = locate(w, &var, out);
	Dwarf_Addr entry;
	if (!r && out->kind == DWL_MEM && out->regno != DW_REG_IP && dwarf_tag(&var) == DW_TAG_formal_parameter &&
	    dw_entrypc((Dwarf_Die *)&w->sp, &entry) == 0 && entry == w->pc) {
		sb_printf(why, "at the entry of %s, '%s' is not yet in its stack slot (unoptimized code): "
			  "args.%s reads it from its register there", scope_name(w), name, name);
		return -1;
	}
	if (r == -ENOENT || r == -ESRCH)
		sb_printf(why, "'%s' is optimized out at %s:%d (%s)", name, w->file, w->line,
			  r == -ESRCH ? "only its value at the function's entry is described there"
				      : "it has no location there");
	else if (r)
		sb_printf(why, "'%s' at %s:%d is computed by a DWARF expression sonde does not read "
			  "(only registers, memory at register + offset, constants)", name, w->file, w->line);
	return r ? -1 : 0;
}

int dw_local_at(DebugInfo *di, Dwarf_Addr pc, const char *name, bool params_only, DwLocal *out,
		StrBuf *why)
{
	Where w = {0};
	if (!di->dw || !find_where(di, pc, &w)) {
		sb_printf(why, "no function in the debug info holds address 0x%lx", (unsigned long)pc);
		return -1;
	}
	bool owned;
	Dwarf_CFI *cfi = debuginfo_cfi(di, &owned);
	Dwarf_Frame *frame;
	w.fb = dw_frame_base(&w.sp, pc, cfi, &w.nfb, &frame);
	int r = find_local(&w, name, params_only, out, why);
	free(frame);
	if (owned && cfi)
		dwarf_cfi_end(cfi);
	return r;
}
