/* perf probe's event arguments: parsing NAME=VAR[->FIELD|.FIELD|[N]]*[:TYPE]
 * and $vars/$params/$retval/$comm, and turning a variable at a probe site
 * into a uprobe fetch argument ("+8(-24(%bp)):s64") from its DWARF
 * location, with perf's rules and messages. */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "../util/util.h"
#include "probe_event.h"

static bool is_c_varname(const char *s)
{
	return isalpha((unsigned char)*s) || *s == '_';
}

int probe_arg_parse(const char *text, ProbeArg *a)
{
	char *s = xstrdup(text), *str = s, *t;
	memset(a, 0, sizeof(*a));
	if ((t = strchr(str, '='))) {
		a->name = xstrndup(str, (size_t)(t - str));
		str = t + 1;
	}
	if ((t = strchr(str, ':'))) {
		*t = '\0';
		a->type = xstrdup(t + 1);
	}
	t = strpbrk(str, "-.[");
	if (!is_c_varname(str) || !t) {
		a->var = xstrdup(str);
		free(s);
		return 0;
	}
	a->var = xstrndup(str, (size_t)(t - str));
	const char *good = a->var;
	while (t) {
		ArgField f = {0};
		if (*t == '[') {
			str = t;
			f.index = strtol(str + 1, &t, 0);
			f.ref = true;
			f.is_index = true;
			if (*t != ']' || t == str + 1) {
				semantic_error("Array index must be a number.\n");
				free(s);
				return -EINVAL;
			}
			t++;
			if (!*t)
				t = NULL;
		} else {
			if (*t == '.') {
				str = t + 1;
			} else if (t[1] == '>') {
				str = t + 2;
				f.ref = true;
			} else {
				semantic_error("Argument parse error: %s\n", str);
				free(s);
				return -EINVAL;
			}
			t = strpbrk(str, "-.[");
		}
		f.name = t ? xstrndup(str, (size_t)(t - str)) : xstrdup(str);
		if (*str != '[')
			good = f.name;
		vec_push(&a->fields, f);
	}
	if (!a->name) /* the last field's name (not an index) */
		a->name = xstrdup(good);
	free(s);
	return 0;
}

void probe_arg_text(const ProbeArg *a, StrBuf *b)
{
	if (a->name && a->var)
		sb_printf(b, "%s=", a->name);
	sb_puts(b, a->var);
	for (int i = 0; i < a->fields.n; i++) {
		const ArgField *f = &a->fields.v[i];
		if (f->is_index)
			sb_puts(b, f->name);
		else
			sb_printf(b, "%s%s", f->ref ? "->" : ".", f->name);
	}
	if (a->type)
		sb_printf(b, ":%s", a->type);
}

bool probe_arg_is_var(const ProbeArg *a)
{
	return is_c_varname(a->var) || !strcmp(a->var, "$vars") || !strcmp(a->var, "$params");
}

static const char *reg_name(int regno)
{
	static const char *regs[] = {"%ax", "%dx", "%cx", "%bx", "%si", "%di", "%bp", "%sp", "%r8", "%r9",
				     "%r10", "%r11", "%r12", "%r13", "%r14", "%r15", "%ip"};
	return regno >= 0 && regno < (int)(sizeof(regs) / sizeof(*regs)) ? regs[regno] : NULL;
}

/* A fetch argument being built: a base value and a chain of dereferences,
 * the first nearest the base. */
typedef struct Fetch {
	char *value;
	VEC(long) refs;
} Fetch;

static void fetch_text(const Fetch *f, StrBuf *b)
{
	for (int i = f->refs.n - 1; i >= 0; i--)
		sb_printf(b, "%+ld(", f->refs.v[i]);
	sb_puts(b, f->value);
	for (int i = 0; i < f->refs.n; i++)
		sb_putc(b, ')');
}

static int location_error(int r, const char *var)
{
	if (r == -ENOTSUP)
		probe_err("Sorry, we don't support this variable location yet.\n");
	else
		probe_err("Failed to find the location of the '%s' variable at this address.\n"
			  " Perhaps it has been optimized out.\n"
			  " Use -V with the --range option to show '%s' location range.\n",
			  var, var);
	return r == -ENOTSUP ? r : -ENOENT;
}

static int fetch_location(ProbeSite *s, DebugInfo *di, Dwarf_Die *var, const char *name, Fetch *f)
{
	VarLoc loc;
	int r = dw_var_location(var, s->addr, s->fb, &s->sp, &loc);
	if (r)
		return location_error(r, name);
	StrBuf b = {0};
	switch (loc.kind) {
	case VL_CONST: sb_printf(&b, "\\%ld", loc.value); break;
	case VL_STATIC: {
		/* a uprobe fetches @+X at (probe address - probe file offset) + X
		 * (perf writes @NAME, which only kprobes take) */
		Dwarf_Addr so;
		if (!loc.addr || !debuginfo_vaddr_to_offset(di, s->addr, &so)) {
			probe_err("Sorry, we don't support this variable location yet.\n");
			return -ENOTSUP;
		}
		sb_printf(&b, "@+0x%lx", (unsigned long)(loc.addr - s->addr + so));
		break;
	}
	default: {
		const char *reg = reg_name(loc.regno);
		if (!reg) {
			probe_err("Mapping for the register number %u missing on this architecture.\n", loc.regno);
			return -ENOTSUP;
		}
		sb_puts(&b, reg);
		if (loc.kind == VL_MEM)
			vec_push(&f->refs, loc.offset);
	}
	}
	f->value = b.s;
	return 0;
}

static bool die_find_member(Dwarf_Die *st, const char *name, Dwarf_Die *out, long *off)
{
	Dwarf_Die m;
	if (dwarf_child(st, &m) != 0)
		return false;
	do {
		if (dwarf_tag(&m) != DW_TAG_member)
			continue;
		Dwarf_Attribute a;
		Dwarf_Word mo = 0;
		if (dwarf_attr(&m, DW_AT_data_member_location, &a))
			dwarf_formudata(&a, &mo);
		const char *n = dwarf_diename(&m);
		if (n && !strcmp(n, name)) {
			*out = m;
			*off = dwarf_tag(st) == DW_TAG_union_type ? 0 : (long)mo;
			return true;
		}
		Dwarf_Die t;
		long inner;
		if (!n && dw_resolved_type(&m, &t) && die_find_member(&t, name, out, &inner)) {
			*off = (long)mo + inner; /* an unnamed struct or union member */
			return true;
		}
	} while (dwarf_siblingof(&m, &m) == 0);
	return false;
}

static int die_elem_size(Dwarf_Die *t)
{
	Dwarf_Die e;
	int n = dw_resolved_type(t, &e) ? dwarf_bytesize(&e) : -1;
	return n > 0 ? n : 0;
}

/* perf's convert_variable_fields: *die becomes the member or element */
static int fetch_fields(const ProbeArg *a, Dwarf_Die *die, Fetch *f)
{
	const char *varname = a->var;
	for (int i = 0; i < a->fields.n; i++) {
		const ArgField *fl = &a->fields.v[i];
		Dwarf_Die type;
		if (!dw_resolved_type(die, &type)) {
			probe_err("Failed to get the type of %s.\n", varname);
			return -ENOENT;
		}
		int tag = dwarf_tag(&type);
		if (fl->is_index && (tag == DW_TAG_array_type || tag == DW_TAG_pointer_type)) {
			if (tag == DW_TAG_pointer_type)
				vec_push(&f->refs, 0L);
			else if (!f->refs.n) {
				probe_err("Structure on a register is not supported yet.\n");
				return -ENOTSUP;
			}
			f->refs.v[f->refs.n - 1] += die_elem_size(&type) * fl->index;
			*die = type; /* what follows, or the type, is the element's */
			varname = fl->name;
			continue;
		}
		if (tag == DW_TAG_pointer_type) {
			if (!fl->ref) {
				probe_err("Semantic error: %s must be referred by '->'\n", fl->name);
				return -EINVAL;
			}
			if (!dw_resolved_type(&type, &type)) {
				probe_err("Failed to get the type of %s.\n", varname);
				return -ENOENT;
			}
			tag = dwarf_tag(&type);
			if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type) {
				probe_err("%s is not a data structure nor a union.\n", varname);
				return -EINVAL;
			}
			vec_push(&f->refs, 0L);
		} else {
			if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type) {
				probe_err("%s is not a data structure nor a union.\n", varname);
				return -EINVAL;
			}
			if (fl->is_index) {
				probe_err("Semantic error: %s is not a pointer nor array.\n", varname);
				return -EINVAL;
			}
			if (fl->ref) {
				probe_err("Semantic error: %s must be referred by '.'\n", fl->name);
				return -EINVAL;
			}
			if (!f->refs.n) {
				probe_err("Structure on a register is not supported yet.\n");
				return -ENOTSUP;
			}
		}
		Dwarf_Die m;
		long off;
		if (!die_find_member(&type, fl->name, &m, &off)) {
			probe_err("%s(type:%s) has no member %s.\n", varname, dwarf_diename(&type), fl->name);
			return -EINVAL;
		}
		f->refs.v[f->refs.n - 1] += off;
		*die = m;
		varname = fl->name;
	}
	return 0;
}

static bool is_signed_type(Dwarf_Die *t)
{
	Dwarf_Attribute a;
	Dwarf_Word enc = 0;
	if (!dwarf_attr(t, DW_AT_encoding, &a) || dwarf_formudata(&a, &enc) != 0)
		return false;
	return enc == DW_ATE_signed || enc == DW_ATE_signed_char;
}

/* perf's convert_variable_type: the fetch type of the variable or member */
static int fetch_type(Dwarf_Die *die, const char *cast, Fetch *f, char **type)
{
	Dwarf_Attribute a;
	Dwarf_Word bits, boff;
	Dwarf_Die t;
	StrBuf b = {0};
	*type = NULL;
	if (cast && strcmp(cast, "string")) {
		*type = xstrdup(cast);
		return 0;
	}
	if (dwarf_attr(die, DW_AT_bit_size, &a) && dwarf_formudata(&a, &bits) == 0) {
		Dwarf_Die mt;
		int total = dw_resolved_type(die, &mt) ? dwarf_bytesize(&mt) : 0;
		boff = 0;
		if (dwarf_attr(die, DW_AT_data_bit_offset, &a))
			dwarf_formudata(&a, &boff);
		sb_printf(&b, "b%d@%d/%d", (int)bits, (int)(boff % 8), total * 8);
		*type = b.s;
		return 0;
	}
	if (!dw_resolved_type(die, &t)) {
		probe_err("Failed to get a type information of %s.\n", dwarf_diename(die));
		return -ENOENT;
	}
	if (cast) { /* string */
		int tag = dwarf_tag(&t);
		if (tag != DW_TAG_pointer_type && tag != DW_TAG_array_type) {
			probe_err("Failed to cast into string: %s(%s) is not a pointer nor array.\n",
				  dwarf_diename(die), dwarf_diename(&t));
			return -EINVAL;
		}
		Dwarf_Die el;
		if (!dw_resolved_type(&t, &el)) {
			probe_err("Failed to get a type information.\n");
			return -ENOENT;
		}
		if (tag == DW_TAG_pointer_type)
			vec_push(&f->refs, 0L);
		const char *en = dwarf_diename(&el);
		if (!en || (strcmp(en, "char") && strcmp(en, "unsigned char"))) {
			probe_err("Failed to cast into string: %s is not (unsigned) char *.\n", dwarf_diename(die));
			return -EINVAL;
		}
		*type = xstrdup("string");
		return 0;
	}
	int size = dwarf_bytesize(&t);
	if (size <= 0)
		return 0; /* the kernel's default */
	int nbits = size * 8;
	if (nbits > 64) {
		probe_err("%s exceeds max-bitwidth. Cut down to %d bits.\n", dwarf_diename(&t), 64);
		nbits = 64;
	}
	sb_printf(&b, "%c%d", is_signed_type(&t) ? 's' : 'x', nbits);
	*type = b.s;
	return 0;
}

typedef struct VarFind {
	const char *name;
	Dwarf_Addr addr;
} VarFind;

static int var_at_cb(Dwarf_Die *d, void *data)
{
	VarFind *vf = data;
	Dwarf_Attribute a;
	int tag = dwarf_tag(d);
	const char *n;
	if ((tag == DW_TAG_formal_parameter || tag == DW_TAG_variable) && (n = dwarf_diename(d)) &&
	    !strcmp(n, vf->name) && (dwarf_attr(d, DW_AT_external, &a) || dwarf_attr(d, DW_AT_location, &a) ||
				     dwarf_attr(d, DW_AT_const_value, &a)))
		return DWF_END;
	return dwarf_haspc(d, vf->addr) > 0 ? DWF_CONTINUE : DWF_SIBLING;
}

/* One argument at a site: "name=fetch:type" into b. */
int probe_arg_fetch(ProbeSite *s, DebugInfo *di, const ProbeArg *a, int index, StrBuf *b)
{
	if (!is_c_varname(a->var)) { /* $retval, $comm, a register... as given */
		sb_printf(b, " %s%d=%s", "arg", index + 1, a->var);
		if (a->type)
			sb_printf(b, ":%s", a->type);
		return 0;
	}
	VarFind vf = {a->var, s->addr};
	Dwarf_Die var;
	if (!dw_find_child(&s->scope, var_at_cb, &vf, &var)) {
		vf.addr = 0;
		if (!dw_find_child(&s->cu, var_at_cb, &vf, &var))
			return location_error(-ENOENT, a->var);
	}
	Fetch f = {0};
	char *type = NULL;
	int r = fetch_location(s, di, &var, a->var, &f);
	if (!r && a->fields.n)
		r = fetch_fields(a, &var, &f);
	if (!r)
		r = fetch_type(&var, a->type, &f, &type);
	if (!r) {
		StrBuf name = {0};
		if (a->name) {
			sb_puts(&name, a->name);
		} else { /* perf's synthesized name, the type separator as '_' */
			probe_arg_text(a, &name);
			char *c = strchr(name.s, ':');
			if (c)
				*c = '_';
		}
		sb_printf(b, " %s=", name.s);
		fetch_text(&f, b);
		if (type)
			sb_printf(b, ":%s", type);
		sb_free(&name);
	}
	free(type);
	free(f.value);
	vec_free(&f.refs);
	return r;
}

typedef VEC(ProbeArg) ArgList;
typedef struct Expand {
	ProbeSite *s;
	bool vars;
	ArgList *out;
} Expand;

static int expand_cb(Dwarf_Die *d, void *data)
{
	Expand *e = data;
	int tag = dwarf_tag(d);
	if ((tag == DW_TAG_formal_parameter || (tag == DW_TAG_variable && e->vars)) &&
	    dw_var_location(d, e->s->addr, e->s->fb, &e->s->sp, NULL) == 0 && dwarf_diename(d)) {
		ProbeArg a = {.var = xstrdup(dwarf_diename(d))};
		vec_push(e->out, a);
	}
	return dwarf_haspc(d, e->s->addr) > 0 ? DWF_CONTINUE : DWF_SIBLING;
}

void probe_args_expand(ProbeSite *s, const ProbeArg *args, int nargs, void *out)
{
	ArgList *o = out;
	for (int i = 0; i < nargs; i++) {
		bool vars = !strcmp(args[i].var, "$vars");
		if (!vars && strcmp(args[i].var, "$params")) {
			vec_push(o, args[i]);
			continue;
		}
		Expand e = {s, vars, out};
		Dwarf_Die mem;
		dw_find_child(&s->scope, expand_cb, &e, &mem);
	}
}
